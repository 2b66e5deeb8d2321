package redact

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/agc-sarif/agc-sarif/internal/secrettest"
)

// TestDataRules checks every rule of rules.toml on a shape it must hide (and that the rule
// named in the marker is that rule or a more specific one), and that each rule has a case.
func TestDataRules(t *testing.T) {
	f := secrettest.Fake
	an := secrettest.Alnum
	hx := "0123456789abcdef"
	cases := []struct{ rule, text, secret string }{
		{"teams-webhook", "https://acme.webhook.office.com/webhookb2/" + f(1, 8, "abcdef0123456789") + "-aaaa-bbbb-cccc-" + f(2, 12, "abcdef0123456789") + "@x/IncomingWebhook/" + f(3, 32, "abcdef0123456789") + "/y", f(3, 32, "abcdef0123456789")},
		{"discord-webhook", "https://discordapp.com/api/webhooks/12345678901234567/" + f(4, 68, secrettest.URL64), f(4, 68, secrettest.URL64)},
		{"discord-bot-token", "bot token: MT" + f(5, 24, an) + ".Gx" + f(6, 4, an) + "." + f(7, 38, an), f(7, 38, an)},
		{"telegram-bot-token", "https://api.telegram.org/bot12345678:" + f(8, 35, an) + "/getMe", f(8, 35, an)},
		{"telegram-bot-token", "tok 123456789:AA" + f(9, 33, an), f(9, 33, an)},
		{"mysql-password", "mysql -h db -u root -p" + f(10, 12, an) + " app", f(10, 12, an)},
		{"mysql-password", `mariadb --password="` + f(11, 12, an) + `" app`, f(11, 12, an)},
		{"registry-login-password", "podman login quay.io -u bot -p " + f(12, 20, an), f(12, 20, an)},
		{"sshpass-password", "sshpass -p" + f(13, 12, an) + " scp a b:", f(13, 12, an)},
		{"openssl-password", "openssl pkcs12 -export -passout pass:" + f(14, 12, an) + " -out a.p12", f(14, 12, an)},
		{"openssl-password", "openssl enc -d -k '" + f(15, 12, an) + "' -in x", f(15, 12, an)},
		{"redis-password", "redis-cli -a '" + f(16, 12, an) + "' ping", f(16, 12, an)},
		{"ldap-password", "ldapwhoami -x -w " + f(17, 12, an), f(17, 12, an)},
		{"smb-password", "rpcclient -U 'dom\\admin%" + f(18, 12, an) + "' 10.0.0.1", f(18, 12, an)},
		{"netrc-password", "machine h\n\tlogin u\n\tpassword " + f(19, 12, an), f(19, 12, an)},
		{"netrc-password", "login u password " + f(20, 12, an), f(20, 12, an)},
		{"azure-sas-signature", "https://a.queue.core.windows.net/q?sv=2020&sig=" + f(21, 40, an), f(21, 40, an)},
		{"aws-presigned-url", "?X-Amz-Security-Token=" + f(22, 60, an) + "&x=1", f(22, 60, an)},
		{"url-query-secret", "https://h/x?client_key=" + f(23, 24, an) + "&a=b", f(23, 24, an)},
		{"url-token-user", "https://" + f(24, 32, an) + "@h.example.com/x", f(24, 32, an)},
		{"aws-secret-key", "ASIA" + f(25, 16, secrettest.Upnum) + ":" + f(26, 40, secrettest.B64), f(26, 40, secrettest.B64)},
		{"gcp-private-key-id", `private_key_id = "` + f(27, 40, "0123456789abcdef") + `"`, f(27, 40, "0123456789abcdef")},
		{"teams-webhook", "https://outlook.office.com/webhook/" + f(28, 8, hx) + "-1111-2222-3333-" + f(29, 12, hx) + "@" + f(30, 36, hx) + "/IncomingWebhook/" + f(31, 32, hx) + "/" + f(32, 36, hx), f(31, 32, hx)},
		{"teams-webhook", "HTTPS://Outlook.Office365.com/webhook/" + f(33, 36, hx) + "/IncomingWebhook/" + f(34, 32, hx), f(34, 32, hx)},
		{"teams-webhook", "https://contoso.webhook.office.com/webhook/" + f(35, 36, hx) + "@x/IncomingWebhook/" + f(36, 32, hx) + "/" + f(37, 36, hx) + "/V2" + f(38, 40, an), f(36, 32, hx)},
		{"power-automate-webhook", "https://prod-27.westeurope.logic.azure.com:443/workflows/" + f(39, 32, hx) + "/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=" + f(40, 43, secrettest.URL64), f(39, 32, hx)},
		{"power-automate-webhook", "https://default" + f(41, 32, hx) + ".0e.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/" + f(42, 32, hx) + "/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=" + f(43, 43, secrettest.URL64), f(43, 43, secrettest.URL64)},
		{"gcp-private-key-id", `{\"privateKeyId\": \"` + f(44, 40, hx) + `\"}`, f(44, 40, hx)},
		{"gcp-private-key-id", "projects/p/serviceAccounts/ci@p.iam.gserviceaccount.com/keys/" + f(45, 40, hx), f(45, 40, hx)},
		{"gcp-service-account-client-id", `"client_email": "ci@p.iam.gserviceaccount.com",` + "\n  " + `"client_id": "` + f(46, 21, "0123456789") + `",`, f(46, 21, "0123456789")},
		{"gcp-service-account-client-id", `"client_id": "` + f(47, 21, "0123456789") + `",` + "\n" + `"auth_uri": "https://accounts.google.com/o/oauth2/auth"`, f(47, 21, "0123456789")},
		{"paseto", "v4.public." + f(48, 90, secrettest.URL64), f(48, 90, secrettest.URL64)},
		{"cloud-oauth-token", `"access_token": "ya29.` + f(49, 100, secrettest.URL64) + `"`, f(49, 100, secrettest.URL64)},
		{"cloud-oauth-token", "refresh_token 1//0" + f(50, 60, secrettest.URL64), f(50, 60, secrettest.URL64)},
		{"cloud-oauth-token", "IQoJb3JpZ2luX2Vj" + f(51, 200, secrettest.B64), f(51, 200, secrettest.B64)},
		{"putty-private-key", "Private-Lines: 1\n" + f(52, 64, secrettest.B64) + "\nPrivate-MAC: " + f(53, 40, hx), f(52, 64, secrettest.B64)},
		{"putty-private-key", "Private-MAC: " + f(54, 40, hx), f(54, 40, hx)},
	}
	var cfg tomlConfig
	if _, err := toml.Decode(ownTOML, &cfg); err != nil {
		t.Fatal(err)
	}
	tested := map[string]bool{}
	r := New(Options{})
	for _, c := range cases {
		tested[c.rule] = true
		if !strings.Contains(c.text, c.secret) {
			t.Fatalf("%s: the secret is not in its text", c.rule)
		}
		got := r.String(c.text)
		if strings.Contains(got, c.secret) || !strings.Contains(got, "[REDACTED:") {
			t.Errorf("%s: not hidden: %s", c.rule, got)
		}
	}
	for _, rl := range cfg.Rules {
		if !tested[rl.ID] {
			t.Errorf("rule %s of rules.toml has no test case", rl.ID)
		}
	}
}

// TestObfuscations: what a person or a shell reads as a token is hidden however it is written.
func TestObfuscations(t *testing.T) {
	tok := secrettest.Fake(30, 36, secrettest.Alnum)
	b64 := base64.StdEncoding.EncodeToString([]byte("gh" + "p_" + tok))
	for _, s := range []string{
		"gh" + "p\uFF3F" + tok,
		"\uFF47\uFF48\uFF50\uFF3F" + tok,
		"g\u200Bh\u200Cp\u200D_\u2060" + tok,
		"gh\u00ADp_" + tok,
		"gh\u202Ep_" + tok,
		"gh" + "p%5F" + tok,
		"gh" + "p%5f" + tok,
		`gh` + `p\u005f` + tok,
		"echo " + b64 + " | base64 -d",
		"echo " + strings.TrimRight(base64.URLEncoding.EncodeToString([]byte("x token="+tok)), "=") + " done",
	} {
		got := New(Options{}).String(s)
		if strings.Contains(got, tok) || strings.Contains(got, b64) || !strings.Contains(got, "[REDACTED:") {
			t.Errorf("not hidden: %q -> %q", s, got)
		}
	}
}

// TestNotSecrets: the new rules leave ordinary commands and prose alone.
func TestNotSecrets(t *testing.T) {
	r := New(Options{})
	for _, s := range []string{
		"mysql -u root -p app",
		"mysql -u root -p",
		"docker login -u bot --password-stdin ghcr.io",
		"docker run -p 8080:80 nginx",
		"sshpass -f ~/.pw ssh host",
		"openssl req -new -key k.pem -passin env:KEY_PASS",
		"machine learning models need data",
		"https://example.com/search?q=how+to+rotate&page=2",
		"git clone https://github.com/agc-sarif/agc-sarif.git",
		"password:\n  user: app\n",
		"credentials:\n  - name: x\n",
		"ZXhhbXBsZSB0ZXh0IHdpdGhvdXQgYW55IHNlY3JldCBpbiBpdA==",
		"caf\u00e9 na\u00efve r\u00e9sum\u00e9 100% done",
		"the secret is out and the token is expired",
		"the key is in the drawer; the password is wrong",
		"Key: value, Password: hidden",
		"the api key is stored in ~/.config/app/key.json",
		"the password is /run/secrets/db",
		"the token is https://example.com/docs/tokens",
		"a key = value pair",
		"export PATH=/usr/local/bin:$PATH PWD=/work/main OLDPWD=/work",
		"the passcode for the door is printed on the badge",
	} {
		if got := r.String(s); got != s {
			t.Errorf("ordinary text changed:\n  %q\n  %q", s, got)
		}
	}
}

// TestProseSecrets: a password, token or key given in prose or a loose note is hidden, in any
// case and with any of the verbs and operators people use.
func TestProseSecrets(t *testing.T) {
	f, an := secrettest.Fake, secrettest.Alnum
	r := New(Options{})
	for i, c := range []struct{ text, secret string }{
		{"the password is " + f(60, 14, an), f(60, 14, an)},
		{"THE PASSWORD IS " + f(61, 12, an) + ".", f(61, 12, an)},
		{"Token: " + f(62, 20, an), f(62, 20, an)},
		{"token = '" + f(63, 9, an) + "'", f(63, 9, an)},
		{"KEY = " + f(64, 18, an), f(64, 18, an)},
		{"Api Key: " + f(65, 24, an), f(65, 24, an)},
		{"my passwd is " + f(66, 10, an) + "!x", f(66, 10, an)},
		{"the secret is `" + f(67, 12, an) + "`", f(67, 12, an)},
		{"The password for the staging db was " + f(68, 11, an) + "#", f(68, 11, an)},
		{"secret access key is " + f(69, 40, secrettest.B64), f(69, 40, secrettest.B64)},
		{"the client secret value is " + f(70, 34, an), f(70, 34, an)},
		{`{"note":"the password is \"` + f(71, 10, an) + `\" for now"}`, f(71, 10, an)},
		{"Passphrase is now: " + f(72, 16, an), f(72, 16, an)},
	} {
		if !strings.Contains(c.text, c.secret) {
			t.Fatalf("case %d: the secret is not in its text", i)
		}
		if got := r.String(c.text); strings.Contains(got, c.secret) || !strings.Contains(got, "[REDACTED:") {
			t.Errorf("case %d: not hidden: %q -> %q", i, c.text, got)
		}
	}
}
