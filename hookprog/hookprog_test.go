package hookprog

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestOf(t *testing.T) {
	tests := []struct {
		command, name, key string
	}{
		// The program alone, as configured and as recorded.
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`, "guard", "guard"},
		{`/tmp/agc-replay/x/hooks/gate.py pre-crash`, "gate", "gate pre-crash"},
		{`'/opt/My Gates/no_force.py' --strict`, "no_force", "no_force --strict"},
		{`C:\hooks\guard.exe`, "guard", "guard"},
		// The recorder, both spellings, with and without its flags.
		{`agc-record -- ./guard.sh`, "guard", "guard"},
		{`agc-record --log "$CLAUDE_PROJECT_DIR"/.agc/hooks.jsonl -- "$CLAUDE_PROJECT_DIR"/hooks/gate.py pre-deny`, "gate", "gate pre-deny"},
		{`agc-record --log=x.jsonl --runtime codex -- guard`, "guard", "guard"},
		{`/usr/local/bin/agc-record ./guard.sh`, "guard", "guard"},
		{`agc-sarif record -- ./guard.sh`, "guard", "guard"},
		{`"$CLAUDE_PROJECT_DIR"/hooks/agc-sarif record --log "$CLAUDE_PROJECT_DIR"/hook-log.jsonl -- "$CLAUDE_PROJECT_DIR"/hooks/gate.py pre-exit2-plain`, "gate", "gate pre-exit2-plain"},
		{`agc-sarif collect .agc`, "agc-sarif", "agc-sarif collect .agc"},
		// Wrappers.
		{`env AGC_GUARD=strict timeout 20 agc-record --log l -- python3 "$CLAUDE_PROJECT_DIR"/hooks/gate.py pre-exit2-plain`, "gate", "gate pre-exit2-plain"},
		{`env -i PATH=/bin -u HOME ./guard`, "guard", "guard"},
		{`env -S "python3 -u guard.py" --strict`, "guard", "guard --strict"},
		{`FOO=1 BAR=2 ./guard.sh`, "guard", "guard"},
		{`time -p nice -n 10 ./guard.sh`, "guard", "guard"},
		{`timeout --signal=KILL -k 5 30s ./guard.sh`, "guard", "guard"},
		{`timeout 5 agc-sarif record -- bash -c './x.sh --fast'`, "x", "x --fast"},
		{`exec ./guard.sh`, "guard", "guard"},
		{`nohup command ./guard.sh`, "guard", "guard"},
		// Shells: the script inside.
		{`sh -c './guard.sh "$1"' sh arg`, "guard", "guard $1"},
		{`bash -ec 'cd "$CLAUDE_PROJECT_DIR" && exec python3 hooks/guard.py'`, "guard", "guard"},
		{`bash -lc "source .venv/bin/activate; python -m gates.force_push --strict"`, "gates.force_push", "gates.force_push --strict"},
		{`bash hooks/guard.sh`, "guard", "guard"},
		{`FOO=1 bash -c 'x'`, "x", "x"},
		{`cd "$CLAUDE_PROJECT_DIR" && ./guard.sh || true`, "guard", "guard"},
		// Interpreters and package runners.
		{`python3 /opt/Gates/No_Force.py --strict`, "No_Force", "No_Force --strict"},
		{`python3.12 -u -X dev guard.py`, "guard", "guard"},
		{`python -m mygates.guard`, "mygates.guard", "mygates.guard"},
		{`python3 -c 'import sys; sys.exit(2)'`, "python3", "python3 -c import sys; sys.exit(2)"},
		{`node ./check.mjs`, "check", "check"},
		{`node -r ts-node/register hooks/check.ts`, "check", "check"},
		{`uv run --with requests hooks/guard.py`, "guard", "guard"},
		{`uv run python hooks/guard.py`, "guard", "guard"},
		{`uv run -- guard-cli --x`, "guard-cli", "guard-cli --x"},
		{`uvx agc-guards==1.2`, "agc-guards", "agc-guards"},
		{`npx -y @acme/agent-guard@1.4.0 --mode strict`, "agent-guard", "agent-guard --mode strict"},
		{`npx --yes tsx hooks/check.ts`, "check", "check"},
		{`bun run hooks/check.ts`, "check", "check"},
		{`deno run -A hooks/check.ts`, "check", "check"},
		{`go run ./cmd/guard`, "guard", "guard"},
		{`pwsh -NoProfile -File C:\hooks\guard.ps1`, "guard", "guard"},
		// Nothing to name.
		{``, "", ""},
		{`   `, "", ""},
		{`env`, "env", "env"},
		{`bash -c`, "bash", "bash -c"},
		{`agc-record --`, "agc-record", "agc-record --"},
		{`cd /x`, "", ""},
		// Not valid shell: split on white space.
		{`./guard.sh "unterminated`, "guard", "guard unterminated"},
		{`agc-record -- ./guard.sh )`, "guard", "guard"},
	}
	for _, tt := range tests {
		p := Of(tt.command)
		if p.Name != tt.name || p.Key() != tt.key {
			t.Errorf("Of(%q) = name %q key %q, want %q, %q", tt.command, p.Name, p.Key(), tt.name, tt.key)
		}
	}
}

func TestOfArgv(t *testing.T) {
	tests := []struct {
		argv []string
		key  string
	}{
		{[]string{"/tmp/p/hooks/gate.py", "pre-crash"}, "gate pre-crash"},
		{[]string{"python3", "/tmp/p/hooks/gate.py", "mode with space"}, "gate mode with space"},
		{[]string{"sh", "-c", "agc-record -- ./g.sh"}, "g"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := OfArgv(tt.argv).Key(); got != tt.key {
			t.Errorf("OfArgv(%q).Key() = %q, want %q", tt.argv, got, tt.key)
		}
	}
}

func TestRuleName(t *testing.T) {
	tests := []struct{ command, want string }{
		{`python3 /opt/Gates/No_Force.py`, "no_force"},
		{`"$GUARD"`, "guard"},
		{`./Ünïcode Guard.sh`, "n-code"},
		{`!!!`, ""},
		{`./` + strings.Repeat("a", 100) + `.sh`, strings.Repeat("a", 64)},
	}
	for _, tt := range tests {
		if got := Of(tt.command).RuleName(); got != tt.want {
			t.Errorf("Of(%q).RuleName() = %q, want %q", tt.command, got, tt.want)
		}
	}
}

// FuzzOf checks what every caller relies on: Of never panics, names a program only when the
// command has words, and its rule name is a valid rule id part.
func FuzzOf(f *testing.F) {
	for _, s := range []string{
		`agc-record --log "$CLAUDE_PROJECT_DIR"/l -- "$CLAUDE_PROJECT_DIR"/hooks/gate.py pre-deny`,
		`env A=1 timeout 20 agc-sarif record -- sh -c 'python3 -m g.x "$1"' sh y`,
		`npx -y @a/b@1 --c`, `bash -c "$(cat x)"`, `a && b || c | d; e &`, `env -S 'env -S "x"'`,
		`pwsh -File x.ps1`, `uv run -- x`, `sh -c 'sh -c "sh -c x"'`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		p := Of(command)
		if strings.TrimSpace(command) == "" && p.Name != "" {
			t.Fatalf("Of(%q) named %q from nothing", command, p.Name)
		}
		if p.Name != "" && p.Word == "" {
			t.Fatalf("Of(%q): name %q without a word", command, p.Name)
		}
		r := p.RuleName()
		if len(r) > 64 || !utf8.ValidString(r) {
			t.Fatalf("Of(%q).RuleName() = %q: too long or not UTF-8", command, r)
		}
		for i, c := range r {
			ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || i > 0 && (c == '.' || c == '_' || c == '-')
			if !ok {
				t.Fatalf("Of(%q).RuleName() = %q: byte %d outside [a-z0-9._-]", command, r, i)
			}
		}
		if p.Key() != "" && !strings.HasPrefix(p.Key(), p.Name) {
			t.Fatalf("Of(%q).Key() = %q does not start with the name %q", command, p.Key(), p.Name)
		}
		_ = OfArgv(strings.Fields(command))
	})
}
