// Package secrettest holds a corpus of planted fake secrets for tests that check no output of
// agc-sarif leaks one. Tokens are built from pieces at run time, so the repository holds no
// literal token for secret scanners to flag; none is anybody's real secret.
package secrettest

import (
	"encoding/base64"
	"strings"
)

// Fake returns n characters of a fixed pseudo-random sequence over alphabet, different per
// seed: well-formed, high-entropy, and not anybody's secret. Tokens are built from pieces at run
// time so that the repository holds no literal token for push protection to flag.
func Fake(seed, n int, alphabet string) string {
	x := uint64(seed)*2654435761 + 12345
	b := make([]byte, n)
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = alphabet[x%uint64(len(alphabet))]
	}
	return string(b)
}

// Alphabets for Fake.
const (
	Alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	Upnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0234567"
	B64   = Alnum + "+/"
	URL64 = Alnum + "-_"
	Lowal = "abcdefghijklmnopqrstuvwxyz0123456789"
)

// Secret is one planted secret in a context: the category it covers, where it appears, the
// text, and the secret part that must not survive redaction.
type Secret struct {
	Category string // e.g. "github", "private-key", "assignment"
	Where    string // "command", "tool input", "tool output" or "message"
	Text     string // the text the secret is planted in
	Secret   string // the part that must never reach an output
}

// Join concatenates pieces, so that no literal token stands in the source.
func Join(parts ...string) string { return strings.Join(parts, "") }

// Planted returns the corpus: at least 60 fake but well-formed secrets of every shape the
// redactor covers, in commands, tool inputs, tool outputs and messages.
func Planted() []Secret {
	return append(platforms(), more()...)
}

// OneLine reports whether the planted text fits on one line (and so in a field that cannot
// hold a newline).
func (s Secret) OneLine() bool { return !strings.ContainsAny(s.Text, "\r\n") }

// platforms are the first 36 shapes: platform tokens, keys, URL passwords, headers and names.
func platforms() []Secret {
	jwtHead := Join("ey", "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9")
	jwtBody := Join("ey", "J", Fake(40, 40, URL64))
	pem := func(kind string, seed int, sep string) string {
		return Join("-----BEGIN ", kind, "PRIVATE KEY-----", sep, Fake(seed, 64, B64), sep, Fake(seed+1, 64, B64), sep, Fake(seed+2, 20, B64), "==", sep, "-----END ", kind, "PRIVATE KEY-----")
	}
	ghp := Join("gh", "p_", Fake(1, 36, Alnum))
	var c []Secret
	add := func(cat, where, text, secret string) { c = append(c, Secret{cat, where, text, secret}) }
	// GitHub
	add("github", "command", "export GITHUB_TOKEN="+ghp+" && gh pr list", ghp)
	add("github", "tool output", "remote: using "+Join("gh", "o_", Fake(2, 36, Alnum))+" for auth", Join("gh", "o_", Fake(2, 36, Alnum)))
	add("github", "message", "The hook saw "+Join("gh", "u_", Fake(3, 36, Alnum))+" in the call.", Join("gh", "u_", Fake(3, 36, Alnum)))
	add("github", "tool input", `{"command":"curl -u x:`+Join("gh", "s_", Fake(4, 36, Alnum))+` https://api.github.com"}`, Join("gh", "s_", Fake(4, 36, Alnum)))
	add("github", "tool output", "refresh="+Join("gh", "r_", Fake(5, 36, Alnum)), Join("gh", "r_", Fake(5, 36, Alnum)))
	add("github", "command", "gh auth login --with-token <<< "+Join("github", "_pat_", Fake(6, 22, Alnum), "_", Fake(7, 59, Alnum)), Join("github", "_pat_", Fake(6, 22, Alnum), "_", Fake(7, 59, Alnum)))
	// GitLab
	add("gitlab", "command", "git push https://oauth2@gitlab.com/x.git -o token="+Join("gl", "pat-", Fake(8, 20, URL64)), Join("gl", "pat-", Fake(8, 20, URL64)))
	// AWS
	add("aws", "command", "AWS_ACCESS_KEY_ID="+Join("AK", "IA", Fake(9, 16, Upnum))+" aws s3 ls", Join("AK", "IA", Fake(9, 16, Upnum)))
	add("aws", "tool output", `{"AccessKeyId": "`+Join("AS", "IA", Fake(10, 16, Upnum))+`"}`, Join("AS", "IA", Fake(10, 16, Upnum)))
	add("aws", "tool input", `{"file_path":"/r/.env","content":"aws_secret_access_key = `+Fake(11, 40, B64)+`\n"}`, Fake(11, 40, B64))
	// Google
	add("google", "message", "Blocked: the call embeds "+Join("AI", "za", Fake(12, 35, URL64))+" in a URL.", Join("AI", "za", Fake(12, 35, URL64)))
	// Slack
	add("slack", "command", "curl -d token="+Join("xo", "xb-", Fake(13, 12, "0123456789"), "-", Fake(14, 24, Alnum))+" https://slack.com/api", Join("xo", "xb-", Fake(13, 12, "0123456789"), "-", Fake(14, 24, Alnum)))
	add("slack", "tool output", "SLACK="+Join("xo", "xp-", Fake(15, 12, "0123456789"), "-", Fake(16, 24, Alnum)), Join("xo", "xp-", Fake(15, 12, "0123456789"), "-", Fake(16, 24, Alnum)))
	// Stripe
	add("stripe", "tool input", `{"command":"stripe charges list --api-key `+Join("sk", "_live_", Fake(17, 24, Alnum))+`"}`, Join("sk", "_live_", Fake(17, 24, Alnum)))
	// OpenAI
	add("openai", "command", "OPENAI_API_KEY="+Join("sk", "-proj-", Fake(18, 48, URL64), "7")+" python run.py", Join("sk", "-proj-", Fake(18, 48, URL64), "7"))
	add("openai", "message", "key "+Join("sk", "-", Fake(19, 40, Alnum), "1")+" was printed", Join("sk", "-", Fake(19, 40, Alnum), "1"))
	// Anthropic
	add("anthropic", "tool output", "using "+Join("sk", "-ant-", "api03-", Fake(20, 93, URL64), "AA"), Join("sk", "-ant-", "api03-", Fake(20, 93, URL64), "AA"))
	// npm, PyPI
	add("npm", "command", "echo //registry.npmjs.org/:_authToken="+Join("np", "m_", Fake(21, 36, Alnum))+" > .npmrc", Join("np", "m_", Fake(21, 36, Alnum)))
	add("pypi", "command", "twine upload -p "+Join("py", "pi-", "AgEIcHlwaS5vcmc", Fake(22, 60, URL64))+" dist/*", Join("py", "pi-", "AgEIcHlwaS5vcmc", Fake(22, 60, URL64)))
	// JWT
	add("jwt", "tool output", "session="+jwtHead+"."+jwtBody+"."+Fake(23, 43, URL64), jwtBody)
	// Private keys: plain, in a JSON string (escaped newlines), and OpenSSH.
	add("private-key", "tool input", pem("RSA ", 24, "\n"), Fake(24, 64, B64))
	add("private-key", "tool input", `{"content":"`+pem("", 27, `\n`)+`"}`, Fake(28, 64, B64))
	add("private-key", "tool output", pem("OPENSSH ", 30, "\n"), Fake(31, 64, B64))
	// URL passwords
	add("url-password", "command", "git clone https://deploy:"+Fake(33, 20, Alnum)+"@git.example.com/r.git", Fake(33, 20, Alnum))
	add("url-password", "message", "DATABASE_URL uses postgres://app:"+Fake(34, 16, Alnum)+"@db:5432/app", Fake(34, 16, Alnum))
	// Authorization / Bearer
	add("authorization", "command", `curl -H "Authorization: Basic `+Fake(35, 28, B64)+`=" https://x`, Fake(35, 28, B64))
	add("authorization", "tool input", `{"headers":{"Authorization":"token `+Fake(36, 40, "0123456789abcdef")+`"}}`, Fake(36, 40, "0123456789abcdef"))
	add("bearer", "message", "the hook found Bearer "+Fake(37, 32, Alnum)+"9 in the request", Fake(37, 32, Alnum)+"9")
	// Names that say secret: env assignments, flags, JSON / YAML keys.
	add("assignment", "command", "export DB_PASSWORD=correct-horse-battery-staple && ./migrate", "correct-horse-battery-staple")
	add("assignment", "tool input", `{"file_path":"/r/config.yaml","content":"smtp:\n  password: Summer2026!xyz\n"}`, "Summer2026!xyz")
	add("assignment", "tool output", `{"api_key": "`+Fake(38, 24, Lowal)+`", "user": "bob"}`, Fake(38, 24, Lowal))
	add("assignment", "message", `client_secret='`+Fake(39, 12, Alnum)+`' was in the command`, Fake(39, 12, Alnum))
	add("assignment", "command", `MYSQL_PWD=tr0ub4dor mysql -u root`, "tr0ub4dor")
	add("flag", "command", "mysql --password hunter2hunter2 -h db", "hunter2hunter2")
	add("flag", "command", `vault login --token="`+Fake(41, 26, Alnum)+`"`, Fake(41, 26, Alnum))
	add("flag", "tool input", `{"command":"deploy --client-secret `+Fake(42, 30, Alnum)+` --env prod"}`, Fake(42, 30, Alnum))
	return c
}

// uuid is a fake UUID from a seed.
func uuid(seed int) string {
	h := "0123456789abcdef"
	return Join(Fake(seed, 8, h), "-", Fake(seed+1, 4, h), "-", Fake(seed+2, 4, h), "-", Fake(seed+3, 4, h), "-", Fake(seed+4, 12, h))
}

// more are the shapes added after the second round of attacks: webhooks and bot URLs, passwords
// on the command lines of database, registry and SSH tools, .netrc, signed URLs, a token as a
// URL's user, an AWS secret beside its key id, GCP key ids, obfuscated tokens (full-width,
// zero-width, percent- and \u-escaped, base64) and YAML values on the line after their key.
func more() []Secret {
	var c []Secret
	add := func(cat, where, text, secret string) { c = append(c, Secret{cat, where, text, secret}) }
	hex := "0123456789abcdef"
	teams := Fake(50, 32, hex)
	add("teams-webhook", "message", "post to https://contoso.webhook.office.com/webhookb2/"+uuid(51)+"@"+uuid(56)+"/IncomingWebhook/"+teams+"/"+uuid(61)+" when done", teams)
	disc := Fake(66, 68, URL64)
	add("discord-webhook", "command", "curl -X POST -d @msg.json https://discord.com/api/webhooks/123456789012345678/"+disc, disc)
	bot := Join("MT", Fake(67, 24, Alnum), ".", Fake(68, 6, URL64), ".", Fake(69, 38, URL64))
	add("discord-bot-token", "tool output", "starting bot with "+bot, bot)
	tg := Join("1234567890:AA", Fake(70, 33, URL64))
	add("telegram-bot-url", "command", "curl https://api.telegram.org/bot"+tg+"/sendMessage -d text=done", tg)
	tg2 := Join("987654321:AA", Fake(71, 33, URL64))
	add("telegram-bot-token", "message", "The bot answers with "+tg2+" as its key.", tg2)
	my := Fake(72, 14, Alnum)
	add("mysql-password", "command", "mysql -u root -p"+my+" -h db app < schema.sql", my)
	my2 := Join(Fake(73, 6, Alnum), " ", Fake(74, 6, Alnum), "!")
	add("mysql-password", "command", "mysqldump -uroot -p'"+my2+"' app > dump.sql", my2)
	dk := Fake(75, 24, Alnum)
	add("registry-login", "command", "docker login -u ci-bot -p "+dk+" registry.example.com", dk)
	sp := Join(Fake(76, 10, Alnum), "!9")
	add("sshpass", "command", "sshpass -p '"+sp+"' ssh deploy@10.0.0.5 uptime", sp)
	os1 := Fake(77, 18, Alnum)
	add("openssl-passin", "command", "openssl rsa -in key.pem -passin pass:"+os1+" -out plain.pem", os1)
	os2 := Fake(78, 18, Alnum)
	add("openssl-k", "command", "openssl enc -aes-256-cbc -salt -k "+os2+" -in backup.tar -out backup.enc", os2)
	n1 := Fake(79, 20, Alnum)
	add("netrc", "tool output", "machine api.example.com login bot password "+n1, n1)
	n2 := Fake(80, 20, Alnum)
	add("netrc", "tool input", `{"file_path":"/home/dev/.netrc","content":"machine git.example.com\n  login ci\n  password `+n2+`\n"}`, n2)
	n3 := Fake(81, 20, Alnum)
	add("netrc", "tool output", "machine git.example.com\n  login ci\n  password "+n3+"\n", n3)
	sas := Join(Fake(82, 30, Alnum), "%2B", Fake(83, 12, Alnum), "%3D")
	add("azure-sas", "tool output", "https://acct.blob.core.windows.net/c/f.zip?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-01T00:00:00Z&sig="+sas, Fake(82, 30, Alnum))
	amz := Fake(84, 64, hex)
	add("aws-presigned", "message", "download from https://b.s3.amazonaws.com/k.tgz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261130T000000Z&X-Amz-Expires=900&X-Amz-Signature="+amz, amz)
	qk := Fake(85, 32, Alnum)
	add("url-query-key", "command", "curl 'https://maps.example.com/api/geocode?key="+qk+"&address=x'", qk)
	qt := Fake(86, 32, Alnum)
	add("url-query-token", "tool output", "GET /hooks/in?access_token="+qt+" 200", qt)
	tu := Fake(87, 40, Alnum)
	add("url-token-user", "command", "git clone https://"+tu+"@git.example.com/org/repo.git", tu)
	dsn := Fake(88, 32, hex)
	add("url-token-user", "tool input", `{"content":"SENTRY_DSN=https://`+dsn+`@o12345.ingest.sentry.io/67890"}`, dsn)
	aid, ask := Join("AK", "IA", Fake(89, 16, Upnum)), Fake(90, 40, B64)
	add("aws-secret-beside-id", "tool output", "User,Access key ID,Secret access key\nci,"+aid+","+ask, ask)
	aid2, ask2 := Join("AK", "IA", Fake(91, 16, Upnum)), Fake(92, 40, B64)
	add("aws-secret-beside-id", "message", "the agent printed "+aid2+" "+ask2+" to the log", ask2)
	gk := Fake(93, 40, hex)
	add("gcp-private-key-id", "tool input", `{"type":"service_account","project_id":"p","private_key_id":"`+gk+`","client_email":"x@p.iam.gserviceaccount.com"}`, gk)
	fw := Fake(94, 36, Alnum)
	add("full-width", "command", "export GH="+Join("gh", "p\uFF3F", fw), fw)
	fw2 := Fake(95, 36, Alnum)
	add("full-width", "message", "token "+Join("\uFF47\uFF48\uFF50_", fw2)+" in the prompt", fw2)
	zw := Fake(96, 36, Alnum)
	add("zero-width", "tool output", "token: "+Join("gh", "\u200B", "p_", zw), zw)
	zw2 := Fake(97, 36, Alnum)
	add("zero-width", "message", "use "+Join("g", "\u200D", "h", "\u2060", "o_", zw2), zw2)
	pe := Fake(98, 36, Alnum)
	add("percent-escape", "command", "curl https://x.example.com/cb?t="+Join("gh", "p%5F", pe), pe)
	ue := Fake(99, 36, Alnum)
	add("unicode-escape", "message", `the text held "`+Join("gh", `p\u005f`, ue)+`" escaped`, ue)
	b64 := base64.StdEncoding.EncodeToString([]byte(Join("gh", "p_", Fake(100, 36, Alnum))))
	add("base64-token", "command", "echo "+b64+" | base64 -d > ~/.token", b64)
	b64b := base64.StdEncoding.EncodeToString([]byte("password=" + Fake(101, 16, Alnum)))
	add("base64-token", "tool output", "data: "+b64b, b64b)
	fwp := Fake(102, 16, Alnum)
	add("full-width", "tool input", `{"command":"\uFF30\uFF21\uFF33\uFF33\uFF37\uFF2F\uFF32\uFF24=`+fwp+` ./run"}`, fwp)
	rd := Fake(103, 20, Alnum)
	add("redis-password", "command", "redis-cli -h cache -a "+rd+" FLUSHALL", rd)
	ld := Fake(104, 16, Alnum)
	add("ldap-password", "command", "ldapsearch -x -D cn=admin,dc=ex -w "+ld+" -b dc=ex", ld)
	smb := Fake(105, 16, Alnum)
	add("smb-password", "command", "smbclient //fs/share -U admin%"+smb+" -c ls", smb)
	y1 := Fake(106, 20, Alnum)
	add("yaml-next-line", "tool input", `{"file_path":"/r/ci.yml","content":"database:\n  password:\n    `+y1+`\n  user: app\n"}`, y1)
	y2 := Fake(107, 20, Alnum)
	add("yaml-next-line", "tool output", "api_token: |\n  "+y2+"\nregion: eu\n", y2)
	cu := Fake(108, 18, Alnum)
	add("curl-user", "command", "curl -u admin:"+cu+" https://jenkins.example.com/api/json", cu)
	cs := Fake(109, 18, Alnum)
	add("connection-string", "tool output", "Server=db;Database=app;User Id=sa;Password="+cs+";TrustServerCertificate=True", cs)
	gc := Fake(110, 24, Alnum)
	add("git-credential", "tool output", "protocol=https\nhost=github.com\nusername=bot\npassword="+gc+"\n", gc)
	pg := Fake(111, 18, Alnum)
	add("env-password", "command", "PGPASSWORD="+pg+" psql -h db -U app -c 'select 1'", pg)
	return append(append(c, third()...), Classes()...)
}

// third are the shapes added in the third round, as classes with several variants each: Teams
// and Office 365 webhooks of every documented form (connectors old and new, Workflows and Power
// Automate triggers), passwords and tokens given in prose, and the ids and keys of cloud
// service-account files given alone.
func third() []Secret {
	var c []Secret
	add := func(cat, where, text, secret string) { c = append(c, Secret{cat, where, text, secret}) }
	hex, dig := "0123456789abcdef", "0123456789"
	// Teams / Office 365 connectors: the old outlook.office.com and outlook.office365.com hosts, and
	// the tenant host with /webhook/ as well as /webhookb2/.
	t1 := Fake(120, 32, hex)
	add("teams-webhook", "tool input", `{"command":"curl -H 'Content-Type: application/json' -d @card.json https://outlook.office.com/webhook/`+uuid(121)+"@"+uuid(126)+"/IncomingWebhook/"+t1+"/"+uuid(131)+`"}`, t1)
	t2 := Fake(136, 32, hex)
	add("teams-webhook", "message", "Notify https://outlook.office365.com/webhook/"+uuid(137)+"@"+uuid(142)+"/IncomingWebhook/"+t2+"/"+uuid(147)+" on failure.", t2)
	t3 := Fake(152, 32, hex)
	add("teams-webhook", "tool output", "TEAMS_URL=https://fabrikam.webhook.office.com/webhookb2/"+uuid(153)+"@"+uuid(158)+"/IncomingWebhook/"+t3+"/"+uuid(163)+"/V2"+Fake(168, 40, Alnum), t3)
	// Teams Workflows / Power Automate HTTP triggers, Logic Apps and Power Platform hosts.
	w1 := Fake(170, 43, URL64)
	add("power-automate-webhook", "command", "curl -X POST 'https://prod-31.westus.logic.azure.com:443/workflows/"+Fake(171, 32, hex)+"/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig="+w1+"' -d @card.json", w1)
	w2 := Fake(172, 32, hex)
	add("power-automate-webhook", "tool output", "webhook: https://prod2-04.northeurope.logic.azure.com/workflows/"+w2+"/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig="+Fake(173, 43, URL64), w2)
	w3 := Fake(174, 43, URL64)
	add("power-automate-webhook", "message", "Post the card to https://default"+Fake(175, 32, hex)+".0e.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/"+Fake(176, 32, hex)+"/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig="+w3, w3)
	// Passwords and tokens in prose, in any case.
	p1 := Join(Fake(177, 9, Alnum), "7")
	add("prose-password", "message", "The password is "+p1+" for the staging box.", p1)
	p2 := Join(Fake(178, 11, Alnum), "!2")
	add("prose-password", "tool output", "NOTE: THE DB PASSWORD WAS "+p2, p2)
	p3 := Fake(179, 28, Alnum)
	add("prose-token", "tool input", `{"content":"Deploy notes\n\nToken: `+p3+`\n"}`, p3)
	p4 := Fake(180, 20, Alnum)
	add("prose-key", "command", "echo 'api key: "+p4+"' >> notes.txt", p4)
	p5 := Join(Fake(181, 12, Alnum), "9")
	add("prose-key", "message", "Use KEY = "+p5+" when the guard asks.", p5)
	p6 := Join(Fake(182, 10, Alnum), "#1")
	add("prose-password", "tool output", "my passwd is "+p6, p6)
	// Cloud service-account files given alone: the GCP key id in JSON (also escaped inside JSON
	// and camel-case), a key's resource name, the client id beside the client email, an Azure
	// client secret, an AWS secret access key in the JSON of create-access-key.
	g1 := Fake(183, 40, hex)
	add("gcp-private-key-id", "tool output", `{"stdout":"{\n  \"private_key_id\": \"`+g1+`\",\n  \"type\": \"service_account\"\n}"}`, g1)
	g2 := Fake(184, 40, hex)
	add("gcp-private-key-id", "message", `the key file had "privateKeyId": "`+g2+`" in it`, g2)
	g3 := Fake(185, 40, hex)
	add("gcp-key-name", "tool output", "deleted key projects/p/serviceAccounts/ci@p.iam.gserviceaccount.com/keys/"+g3, g3)
	g4 := Fake(186, 21, dig)
	add("gcp-client-id", "tool input", `{"file_path":"/r/sa.json","content":"{\n  \"client_email\": \"ci@p.iam.gserviceaccount.com\",\n  \"client_id\": \"`+g4+`\",\n  \"auth_uri\": \"https://accounts.google.com/o/oauth2/auth\"\n}"}`, g4)
	az := Join(Fake(187, 3, Alnum), "8Q~", Fake(188, 34, Alnum))
	add("azure-client-secret", "tool output", `{"appId":"`+uuid(189)+`","secretText":"`+az+`"}`, az)
	az2 := Join(Fake(194, 3, Alnum), "8Q~", Fake(195, 34, Alnum))
	add("azure-client-secret", "message", "rotate "+az2+" today", az2)
	ak := Fake(196, 40, B64)
	add("aws-secret-alone", "tool output", `{"AccessKey": {"UserName": "ci", "Status": "Active", "SecretAccessKey": "`+ak+`"}}`, ak)
	ak2 := Fake(197, 40, B64)
	add("aws-secret-alone", "message", "the aws secret access key is "+ak2, ak2)
	return c
}
