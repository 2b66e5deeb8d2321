package secrettest

import (
	"encoding/base64"
	"strings"
)

// Classes are the shapes of issue 33, as classes with at least three variants each: passwords
// given to common tools as flags, positions or on a pipe into a stdin flag; HTTP credentials of
// any scheme, vendor key headers and cookies; the formats of credential files; assignments in the
// syntax of SQL, code and config files; connection forms and URLs; keyless token formats; and
// secrets hidden by layout (a line continuation, a split string literal, wrapped base64). Every
// value is made at run time.
func Classes() []Secret {
	var c []Secret
	add := func(cat, where, text, secret string) { c = append(c, Secret{cat, where, text, secret}) }
	seed := 300
	v := func(n int, alphabet string) string { seed++; return Fake(seed, n, alphabet) }
	pw := func() string { return v(16, Alnum) }
	b64url := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

	// Passwords as flags of common tools.
	p := pw()
	add("password-flag", "command", "mongosh mongodb://db:27017/app -u admin -p "+p+" --eval 'db.stats()'", p)
	p = pw()
	add("password-flag", "command", `sqlcmd -S db.example.com -U sa -P "`+p+`" -Q "select 1"`, p)
	p = pw()
	add("password-flag", "tool input", `{"command":"gpg --batch --yes --passphrase `+p+` -d secrets.gpg"}`, p)
	p = pw()
	add("password-flag", "command", "rclone config create s3 s3 --pass "+p+" --user bot", p)
	p = pw()
	add("password-flag", "command", "zip -P "+p+" backup.zip db.sql", p)
	p = pw()
	add("storepass", "command", "keytool -importcert -keystore ks.jks -storepass "+p+" -alias ca -file ca.pem", p)
	p = pw()
	add("storepass", "command", "jarsigner -keystore release.jks -storepass:env X -keypass '"+p+"' app.apk key0", p)
	p = pw()
	add("storepass", "message", "the guard saw keytool -list -storepass "+p+" -keystore cacerts", p)
	p = pw()
	add("slash-p", "command", "xfreerdp /v:win.example.com /u:admin /p:"+p+" /cert:ignore", p)
	p = pw()
	add("slash-p", "command", "cmdkey /generic:TERMSRV/host /user:admin /pass:"+p, p)
	p = pw()
	add("slash-p", "tool input", `{"command":"dotnet publish -c Release /p:PublishProfile=prod /p:Password=`+p+`"}`, p)
	p = pw()
	add("secret-body", "command", "gh secret set DEPLOY_KEY --body "+p+" --repo octo/app", p)
	p = pw()
	add("secret-body", "command", `gh secret set NPM_TOKEN -b"`+p+`"`, p)
	p = pw()
	add("secret-body", "tool input", `{"command":"gh variable list && gh secret set SLACK_WEBHOOK --env prod --body '`+p+`'"}`, p)
	p = pw()
	add("user-pass", "command", "curl -fsS -u deploy:"+p+" https://ci.example.com/job/x/build", p)
	p = pw()
	add("user-pass", "command", "curl --user 'svc-ci:"+p+"' https://nexus.example.com/service/rest", p)
	p = pw()
	add("user-pass", "tool input", `{"command":"http -a admin:`+p+` GET https://api.example.com/users"}`, p)
	p = pw()
	add("stdin-password", "command", "echo "+p+" | docker login ghcr.io -u bot --password-stdin", p)
	p = pw()
	add("stdin-password", "command", "echo '"+p+"' | sudo -S apt-get install -y jq", p)
	p = pw()
	add("stdin-password", "tool input", `{"command":"printf '%s' \"`+p+`\" | helm registry login reg.example.com --username ci --password-stdin"}`, p)
	p = v(40, B64)
	add("config-positional", "command", "aws configure set aws_secret_access_key "+p+" --profile prod", p)
	p = v(40, Alnum)
	add("config-positional", "command", "mc alias set minio https://minio.example.com:9000 admin "+p, p)
	p = v(24, Alnum)
	add("config-positional", "tool input", `{"command":"mc alias set backup http://10.0.0.9:9000 `+v(20, Upnum)+` `+p+` --api S3v4"}`, p)
	p = v(120, B64)
	add("config-positional", "command", "aws configure set aws_session_token "+p, p)

	// HTTP credentials of any scheme, vendor key headers, cookies.
	p = v(40, Alnum)
	add("authorization-any-scheme", "command", `curl -H "Authorization: SSWS `+p+`" https://dev.okta.com/api/v1/users`, p)
	p = v(32, Alnum)
	add("authorization-any-scheme", "tool output", "> GET /v1 HTTP/1.1\n> Authorization: Klaviyo-API-Key "+p+"\n> Accept: */*", p)
	p = v(64, "0123456789abcdef")
	add("authorization-any-scheme", "message", "the request carried Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261130/us-east-1/s3/aws4_request, SignedHeaders=host, Signature="+p, p)
	p = v(32, Alnum)
	add("authorization-any-scheme", "tool input", `{"command":"curl -H 'authorization: GenieKey `+p+`' https://api.opsgenie.com"}`, p)
	p = v(36, Alnum)
	add("vendor-header", "command", `curl -H "X-Vault-Token: `+p+`" https://vault:8200/v1/secret/data/x`, p)
	p = v(32, Alnum)
	add("vendor-header", "tool input", `{"command":"curl -H 'X-Algolia-API-Key: `+p+`' -H 'X-Algolia-Application-Id: APP' https://x.algolia.net"}`, p)
	p = v(40, Alnum)
	add("vendor-header", "tool output", "headers:\n  X-Shopify-Access-Token: "+p+"\n  Accept: application/json", p)
	p = v(24, Alnum)
	add("vendor-header", "message", "it sent X-Dataiku-Team: "+p+" to the API", p)
	p = v(20, URL64)
	add("vendor-header", "command", `curl --header "PRIVATE-TOKEN: `+p+`" https://gitlab.example.com/api/v4/projects`, p)
	p = v(32, Alnum)
	add("cookie", "command", `curl -H "Cookie: session=`+p+`; theme=dark" https://app.example.com/admin`, p)
	p = v(32, Alnum)
	add("cookie", "tool output", "< HTTP/1.1 302 Found\n< Set-Cookie: sid="+p+"; Path=/; HttpOnly; Secure\n< Location: /", p)
	p = v(40, URL64)
	add("cookie", "command", "curl -b '_gh_sess="+p+"' https://github.com/settings", p)
	p = v(26, Alnum)
	add("cookie", "message", `request headers {"cookie": "JSESSIONID=`+p+`"} were logged`, p)

	// Credential files.
	p = pw()
	add("netrc-multiline", "tool input", `{"file_path":"/home/dev/.netrc","content":"machine api.example.com\n  password `+p+`\n  login bot\n"}`, p)
	p = pw()
	add("netrc-multiline", "tool output", "default\n  login anonymous\n  password "+p+"\n", p)
	p = pw()
	add("netrc-multiline", "tool output", "machine h1 login a password x1x2x3x4\nmachine ftp.example.com\n\tlogin ci\n\taccount ops\n\tpassword "+p+"\n", p)
	p = pw()
	add("pgpass", "tool input", `{"file_path":"/home/dev/.pgpass","content":"db.example.com:5432:app:alice:`+p+`\n"}`, p)
	p = pw()
	add("pgpass", "command", "echo '*:*:*:postgres:"+p+"' > ~/.pgpass && chmod 600 ~/.pgpass", p)
	p = pw()
	add("pgpass", "tool output", "localhost:5432:*:app:"+p+"\n10.0.0.5:6432:reports:ro:"+pw()+"\n", p)
	p = pw()
	add("maven-password", "tool input", `{"file_path":"/home/dev/.m2/settings.xml","content":"<servers>\n  <server>\n    <id>releases</id>\n    <username>ci</username>\n    <password>`+p+`</password>\n  </server>\n</servers>\n"}`, p)
	p = pw()
	add("maven-password", "tool output", "<server><id>gpg</id><passphrase>"+p+"</passphrase></server>", p)
	p = pw()
	add("maven-password", "message", "settings.xml holds <password>"+p+"</password> in clear", p)
	p = pw()
	add("redis-conf", "tool input", `{"file_path":"/etc/redis/redis.conf","content":"bind 127.0.0.1\nrequirepass `+p+`\n"}`, p)
	p = pw()
	add("redis-conf", "tool output", "# replica\nmasterauth "+p+"\nreplicaof 10.0.0.1 6379\n", p)
	p = pw()
	add("redis-conf", "command", `redis-cli CONFIG SET requirepass "`+p+`"`, p)
	p = v(32, Alnum)
	add("cookie-jar", "tool output", "# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tTRUE\t1893456000\tsessionid\t"+p+"\n", p)
	p = v(40, URL64)
	add("cookie-jar", "tool input", `{"file_path":"/tmp/cookies.txt","content":"#HttpOnly_app.example.com\tFALSE\t/\tTRUE\t0\t_session\t`+p+`\n"}`, p)
	p = v(32, Alnum)
	add("cookie-jar", "tool output", "github.com\tFALSE\t/\tTRUE\t1900000000\tuser_session\t"+p, p)

	// Assignments in the syntax of SQL, code and config files.
	p = pw()
	add("sql-password", "command", `psql -c "CREATE USER app WITH PASSWORD '`+p+`';"`, p)
	p = pw()
	add("sql-password", "tool input", `{"content":"ALTER ROLE reporting ENCRYPTED PASSWORD '`+p+`' VALID UNTIL 'infinity';"}`, p)
	p = pw()
	add("sql-password", "message", "ran CREATE USER 'app'@'%' IDENTIFIED BY '"+p+"'", p)
	p = pw()
	add("sql-password", "command", `mysql -e "ALTER USER root@localhost IDENTIFIED WITH mysql_native_password BY '`+p+`'"`, p)
	p = pw()
	add("sql-password", "tool output", "SQL> alter user system identified by "+p+";", p)
	p = v(32, Alnum)
	add("code-assignment", "tool input", `{"content":"import os\nos.environ[\"X_API_KEY\"] = \"`+p+`\"\n"}`, p)
	p = pw()
	add("code-assignment", "tool input", `{"content":"<?php\ndefine('DB_PASSWORD', '`+p+`');\n"}`, p)
	p = v(32, Alnum)
	add("code-assignment", "message", `the agent wrote ENV['STRIPE_SECRET'] = '`+p+`' in config/env.rb`, p)
	p = pw()
	add("code-assignment", "tool input", `{"content":"os.Setenv(\"GITHUB_TOKEN\", \"`+p+`\")"}`, p)
	p = pw()
	add("gradle-password", "tool input", `{"content":"signingConfigs {\n  release {\n    storePassword '`+p+`'\n    keyPassword \"`+pw()+`\"\n  }\n}\n"}`, p)
	p = pw()
	add("gradle-password", "message", `build.gradle sets keyPassword "`+p+`"`, p)
	p = pw()
	add("gradle-password", "tool input", `{"content":"credentials {\n  username 'ci'\n  password '`+p+`'\n}"}`, p)
	p = v(32, Alnum)
	add("dockerfile-env", "tool input", `{"file_path":"/r/Dockerfile","content":"FROM alpine\nENV API_TOKEN `+p+`\nRUN make\n"}`, p)
	p = pw()
	add("dockerfile-env", "tool output", "Step 3/9 : ENV DB_PASSWORD "+p, p)
	p = v(32, Alnum)
	add("dockerfile-env", "message", "the image sets ENV SECRET_KEY_BASE "+p+" in its second layer", p)
	p = pw()
	add("oracle-connect", "command", "sqlplus system/"+p+"@//db.example.com:1521/XE @init.sql", p)
	p = pw()
	add("oracle-connect", "command", "expdp scott/"+p+"@orcl directory=DP dumpfile=x.dmp", p)
	p = pw()
	add("oracle-connect", "tool output", "SQL> connect app_owner/"+p+"@prod", p)
	p = Join(v(8, Alnum), "@", v(8, Alnum))
	add("url-at-password", "command", "git clone https://deploy:"+p+"@git.example.com/r.git", p)
	p = Join(v(6, Alnum), "@", v(6, Alnum), "!x")
	add("url-at-password", "tool input", `{"content":"DATABASE_URL=postgres://app:`+p+`@db.internal:5432/app"}`, p)
	p = Join(v(10, Alnum), "@@", v(4, Alnum))
	add("url-at-password", "message", "mongodb+srv://admin:"+p+"@cluster0.mongodb.net/test was used", p)

	// Keyless token formats.
	sig := func() string { return v(43, URL64) }
	claims := b64url(`{"sub":"` + v(12, Alnum) + `","exp":1893456000}`)
	for _, head := range []string{"{ \"alg\": \"HS256\", \"typ\": \"JWT\" }", "{\n  \"alg\": \"RS256\",\n  \"typ\": \"JWT\"\n}", "{\r\n\t\"typ\":\"JWT\",\r\n\t\"alg\":\"ES256\"\r\n}"} {
		j := b64url(head) + "." + claims + "." + sig()
		add("jwt-any-header", "tool output", "token="+j, j)
	}
	pa := "v4.public." + v(120, URL64)
	add("paseto", "tool output", `{"token":"`+pa+`"}`, pa)
	pa = "v2.local." + v(96, URL64)
	add("paseto", "message", "session cookie was "+pa, pa)
	pa = "v3.local." + v(110, URL64) + "." + b64url(`{"kid":"k1"}`)
	add("paseto", "command", "curl -H 'X-Session: "+pa+"' https://x", pa)
	t := Join("ya", "29.a0", v(150, URL64))
	add("cloud-oauth", "tool output", `{"access_token": "`+t+`", "expires_in": 3599}`, t)
	t = Join("IQoJb3JpZ2luX2Vj", v(300, B64))
	add("cloud-oauth", "command", "export AWS_SESSION_TOKEN="+t, t)
	t = Join("ya", "29.", v(120, URL64))
	add("cloud-oauth", "message", "the call used "+t+" against storage.googleapis.com", t)
	t = Join("1//0", v(100, URL64))
	add("cloud-oauth", "tool output", "refresh: "+t, t)
	t = Join("FwoGZXIvYXdzE", v(200, B64))
	add("cloud-oauth", "tool output", "sessionToken "+t, t)
	ppk := func(version, enc string) (string, string) {
		priv := v(64, B64)
		body := "PuTTY-User-Key-File-" + version + ": ssh-rsa\nEncryption: " + enc + "\nComment: deploy\nPublic-Lines: 2\n" +
			v(64, B64) + "\n" + v(20, B64) + "\nPrivate-Lines: 2\n" + priv + "\n" + v(24, B64) + "=\nPrivate-MAC: " + v(40, "0123456789abcdef") + "\n"
		return body, priv
	}
	k, sec := ppk("2", "none")
	add("putty-key", "tool output", k, sec)
	k, sec = ppk("3", "aes256-cbc")
	add("putty-key", "tool input", `{"file_path":"/home/dev/id.ppk","content":`+jsonString(k)+`}`, sec)
	k, sec = ppk("3", "none")
	add("putty-key", "message", "the agent printed:\n"+k, sec)
	body := v(64, B64)
	add("pem-head", "tool output", "-----BEGIN RSA PRIVATE KEY-----\n"+body+"\n"+v(64, B64)+"\n", body)
	body = v(64, B64)
	add("pem-head", "message", "key starts -----BEGIN ENCRYPTED PRIVATE KEY----- "+body+" …(cut)", body)
	body = v(64, B64)
	add("pem-head", "tool input", `{"content":"-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,`+v(32, "0123456789ABCDEF")+`\n\n`+body+`\n"}`, body)
	h := v(40, Alnum)
	add("high-entropy", "message", "the hook printed "+h+" and stopped", h)
	h = v(44, B64)
	add("high-entropy", "tool output", "value: "+h, h)
	h = v(48, URL64)
	add("high-entropy", "command", "./deploy.sh "+h+" prod", h)

	// Hidden by layout.
	g := v(36, Alnum)
	add("line-continuation", "command", "curl -H \"Authorization: Bearer "+g[:10]+"\\\n"+g[10:]+"\" https://api.example.com", g[10:])
	g = v(36, Alnum)
	add("line-continuation", "command", "export GITHUB_TOKEN="+Join("gh", "p_", g[:8])+"\\\n"+g[8:], g[8:])
	g = v(24, Alnum)
	add("line-continuation", "tool input", `{"command":"deploy --password `+g[:6]+`\\\n`+g[6:]+` --env prod"}`, g[6:])
	g = v(24, Alnum)
	add("split-literal", "tool input", `{"content":"stripe.api_key = \"`+Join("sk", "_live_")+`\" + \"`+g+`\""}`, g)
	g = v(36, Alnum)
	add("split-literal", "message", `token := "`+Join("gh", "p_")+`" + "`+g[:18]+`" + "`+g[18:]+`"`, g[:18])
	g = v(24, Alnum)
	add("split-literal", "tool input", `{"content":"SLACK = (\"`+Join("xo", "xb-")+`1234567890-\"\n         \"`+g+`\")"}`, g)
	wrap := func(s string) string {
		e := base64.StdEncoding.EncodeToString([]byte(s))
		var b strings.Builder
		for len(e) > 76 {
			b.WriteString(e[:76] + "\n")
			e = e[76:]
		}
		return b.String() + e
	}
	w := wrap("[default]\naws_access_key_id = " + Join("AK", "IA", v(16, Upnum)) + "\naws_secret_access_key = " + v(40, B64) + "\nregion = eu-west-1\n")
	add("base64-wrapped", "tool output", w, strings.SplitN(w, "\n", 2)[0])
	w = wrap("machine api.example.com\n  login bot\n  password " + pw() + "\nmachine other.example.com login x password " + pw() + "\n")
	add("base64-wrapped", "tool output", "$ base64 ~/.netrc\n"+w+"\n$ ", strings.SplitN(w, "\n", 3)[1])
	w = wrap("# generated\nexport DATABASE_PASSWORD=" + pw() + "\nexport GITHUB_TOKEN=" + Join("gh", "p_", v(36, Alnum)) + "\n")
	add("base64-wrapped", "tool input", `{"content":`+jsonString(w)+`}`, strings.SplitN(w, "\n", 2)[0])
	// The token crosses the line break: neither line alone decodes to a match.
	head := "# notes for the staging box" + strings.Repeat(".", 57-10-len("# notes for the staging box")-1) + "\n"
	w = wrap(head + Join("gh", "p_", v(36, Alnum)) + "\nregion = eu-west-1, nothing else in here at all\n")
	add("base64-wrapped", "tool output", w, strings.SplitN(w, "\n", 3)[1])
	return c
}

// jsonString quotes s as a JSON string (newlines escaped).
func jsonString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}

// Ordinary are commands and code that name passwords, tokens and keys, or hold long identifiers
// and hashes, without holding a secret: redaction must leave them as they are.
func Ordinary() []string {
	return []string{
		"git push -f origin main",
		"git push --force-with-lease -u origin feature/login-page",
		"ls -p /etc",
		"ls -la -p ~/work && mkdir -p build/out",
		"mysql -u root -p app < schema.sql",
		"mysql -h db -u app -p",
		"docker login --password-stdin ghcr.io < /dev/null",
		"cat ~/.token | docker login ghcr.io -u bot --password-stdin",
		"psql --password-file /run/secrets/pg -h db",
		"rclone copy --password-command 'pass show rclone' src dst",
		"keytool -list -keystore ks.jks -storepass:file /run/secrets/ks",
		"gh secret set DEPLOY_KEY < key.pem",
		"gh secret set NPM_TOKEN --body \"$NPM_TOKEN\"",
		"curl -u \"$USER:$PASS\" https://ci.example.com",
		"echo \"$PASSWORD\" | docker login -u bot --password-stdin",
		"aws configure set region eu-west-1",
		"aws configure set aws_secret_access_key $AWS_SECRET_ACCESS_KEY",
		"mc alias set local http://localhost:9000 $MINIO_USER $MINIO_PASS",
		"$hash = password_hash($password, PASSWORD_DEFAULT);",
		"if (password_verify($input, $hash)) { login($user); }",
		"def test_login_rejects_bad_password(client):\n    assert client.post('/login', data={'password': 'x'}).status_code == 401",
		"ssh -p 2222 deploy@host",
		"scp -P 2222 file host:/tmp",
		"pip install -r requirements.txt -p 3.12",
		"tar -cpzf backup.tgz /srv",
		"xfreerdp /v:win.example.com /u:admin /p:$RDP_PASS",
		"Authorization: Bearer $TOKEN",
		`curl -H "Authorization: Bearer ${{ secrets.API_TOKEN }}" https://x`,
		"Set-Cookie: theme=dark; Path=/",
		"X-Request-Id: 123e4567-e89b-12d3-a456-426614174000",
		"CREATE TABLE users (id int, password_hash text NOT NULL);",
		"SELECT id FROM users WHERE password IS NULL;",
		"ALTER TABLE accounts ADD COLUMN password_reset_token text;",
		"ENV PATH /usr/local/bin:$PATH",
		"ENV API_TOKEN_FILE /run/secrets/token",
		"storePassword System.getenv('STORE_PASSWORD')",
		"define('DB_PASSWORD', getenv('DB_PASSWORD'));",
		"os.environ[\"X_API_KEY\"] = os.getenv(\"FALLBACK_KEY\")",
		"commit 3f2a9c1d0e4b5a6978877665544332211aabbccd Merge pull request #42",
		"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"integrity sha512-9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"session 123e4567-e89b-12d3-a456-426614174000 ended",
		"func TestRedactorKeepsJSONValidAfterRedactionOfNestedValues(t *testing.T) {",
		"internal/secrettest/classes.go:42: TestSecretsNeverReachOutputsWhenPlantedInEveryPlace",
		"github.com/agc-sarif/agc-sarif/internal/secrettest@v0.0.0-20261130123456-3f2a9c1d0e4b",
		"/home/runner/work/agc-sarif/agc-sarif/.worktrees/fix-1/src/main_test.go",
		"https://github.com/agc-sarif/agc-sarif/blob/3f2a9c1d0e4b5a6978877665544332211aabbccd/README.md",
		"toolu_01A09q90qw90lq917835lq9Xy",
		"msg_01XFDUDYJgAACzvnptvVoYEL",
		"const AVeryLongConstantNameForTheDefaultMaximumNumberOfRetries = 5",
		"the password prompt was skipped; token budget exceeded",
		"login user password reset page",
		"machine learning models need data",
		"user@example.com:22:/srv/app:deploy:main",
		"mongodb://db.example.com:27017/app",
		"Requirepass is documented in redis.conf",
		"<password>${env.MAVEN_PASSWORD}</password>",
		"password: str",
	}
}
