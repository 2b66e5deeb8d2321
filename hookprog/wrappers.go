package hookprog

import (
	"slices"
	"strings"
	"sync"
)

// step is what a wrapper word leads to.
type step struct {
	rest   []string // the command the wrapper runs
	final  bool     // rest[0] is the program itself (a script or package), not another wrapper
	script string   // a shell line the wrapper runs (sh -c, env -S, npx -c)
}

// wrapper reads the words after a wrapper's own word. ok false: the wrapper runs nothing named
// in the line (python3 -c, agc-sarif collect), so it is the program itself.
type wrapper func(args []string) (step, bool)

// wrappers are the programs that run another program, by base name; built on first use
// (wrapperTable), not at program start, which every `agc-sarif record` call would pay.
var (
	wrappersOnce sync.Once
	wrappers     map[string]wrapper
)

// wrapperTable returns wrappers, building it on first use. (A var initialised with the table
// would be an initialisation cycle: the wrappers call resolve, which reads the table.)
func wrapperTable() map[string]wrapper {
	wrappersOnce.Do(func() { wrappers = buildWrappers() })
	return wrappers
}

func buildWrappers() map[string]wrapper {
	return map[string]wrapper{
		"agc-record": recorder, "agc-sarif": agcSarif,
		"env": env, "time": flagsThen("-f", "--format", "-o", "--output"),
		"nice": flagsThen("-n", "--adjustment"), "timeout": timeout,
		"exec": flagsThen("-a"), "command": flagsThen(), "nohup": flagsThen(),
		"stdbuf": flagsThen("-i", "-o", "-e"), "sudo": flagsThen("-u", "-g", "-C", "-D", "-h", "-p"),
		"sh": shell, "bash": shell, "zsh": shell, "dash": shell, "ksh": shell,
		"node": interp("-e", "--eval", "-p", "--print")("-r", "--require", "--import", "--loader", "--experimental-loader"),
		"ruby": interp("-e")("-I", "-r"), "perl": interp("-e", "-E")("-I", "-M"), "php": interp("-r")("-c", "-d"),
		"tsx": interp("-e", "--eval")(), "ts-node": interp("-e", "--eval")(),
		"deno": subcommand("run", interp("--eval")("--config", "-c", "--import-map")),
		"bun":  optionalRun, "go": subcommand("run", interp()("-C", "-o", "-tags")),
		"uv": subcommand("run", flagsThen("--with", "--python", "-p", "--project", "--directory",
			"--package", "--extra", "--group", "--env-file", "--with-requirements", "--index", "-w")),
		"uvx": packageRunner, "npx": packageRunner, "bunx": packageRunner,
		"pnpx": packageRunner, "pnpm": subcommand("dlx", packageRunner), "yarn": subcommand("dlx", packageRunner),
		"pipx": subcommand("run", packageRunner),
		"pwsh": powershell, "powershell": powershell,
	}
}

// resolve names the program of a command's words, unwrapping wrappers.
func resolve(words []string, depth int) Program {
	for n := 0; n < 64; n++ {
		for len(words) > 0 && isAssignment(words[0]) {
			words = words[1:]
		}
		if len(words) == 0 {
			return Program{}
		}
		w := wrapperOf(words[0])
		if w == nil {
			return program(words, 0)
		}
		st, ok := w(words[1:])
		switch {
		case !ok:
			return program(words, 0)
		case st.script != "":
			if p := ofLine(st.script, depth+1); p.Name != "" {
				return p
			}
			return program(words, 0)
		case len(st.rest) == 0:
			return program(words, 0)
		case st.final:
			return program(st.rest, 0)
		}
		words = st.rest
	}
	return Program{}
}

// wrapperOf finds the wrapper of a command word; python3.12, pypy3 and the like are python.
func wrapperOf(word string) wrapper {
	b := baseName(word)
	if strings.HasPrefix(b, "python") || strings.HasPrefix(b, "pypy") {
		return python
	}
	return wrapperTable()[b]
}

// isAssignment reports whether a word is NAME=value (an environment assignment before a command).
func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for j, r := range w[:i] {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || j > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// skipFlags drops leading flags (and the values of those in withValue) and a "--".
func skipFlags(args []string, withValue ...string) []string {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--":
			return args[1:]
		case len(a) < 2 || a[0] != '-':
			return args
		case !strings.Contains(a, "=") && slices.Contains(withValue, a):
			if len(args) < 2 {
				return nil
			}
			args = args[2:]
		default:
			args = args[1:]
		}
	}
	return args
}

// flagsThen is a wrapper whose flags (those in withValue take a value) come before the command.
func flagsThen(withValue ...string) wrapper {
	return func(args []string) (step, bool) { return step{rest: skipFlags(args, withValue...)}, true }
}

// recorderFlags are the flags of agc-record and agc-sarif record that take a value.
var recorderFlags = []string{"--log", "-log", "--runtime", "-runtime"}

func recorder(args []string) (step, bool) { return step{rest: skipFlags(args, recorderFlags...)}, true }

// agcSarif sees through `agc-sarif record`; any other subcommand is agc-sarif itself.
func agcSarif(args []string) (step, bool) {
	if len(args) == 0 || args[0] != "record" {
		return step{}, false
	}
	return recorder(args[1:])
}

// env skips env's flags and assignments; -S (--split-string) holds a command line of its own.
func env(args []string) (step, bool) {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "-S" || a == "--split-string":
			if len(args) < 2 {
				return step{}, false
			}
			return step{script: strings.Join(args[1:], " ")}, true
		case strings.HasPrefix(a, "--split-string="):
			return step{script: strings.Join(append([]string{strings.TrimPrefix(a, "--split-string=")}, args[1:]...), " ")}, true
		case a == "-u" || a == "--unset" || a == "-C" || a == "--chdir":
			if len(args) < 2 {
				return step{}, false
			}
			args = args[2:]
		case a == "--":
			args = args[1:]
		case len(a) > 1 && a[0] == '-', isAssignment(a):
			args = args[1:]
		default:
			return step{rest: args}, true
		}
	}
	return step{}, false
}

// timeout skips its flags and its duration.
func timeout(args []string) (step, bool) {
	args = skipFlags(args, "-s", "--signal", "-k", "--kill-after")
	if len(args) == 0 {
		return step{}, false
	}
	return step{rest: args[1:]}, true
}

// shell runs the script of -c, else a script file.
func shell(args []string) (step, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return step{rest: args[i+1:], final: true}, true
		case a == "-o" || a == "+o" || a == "-O" || a == "+O" || a == "--rcfile" || a == "--init-file":
			i++
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'c'):
			for _, s := range args[i+1:] {
				if len(s) == 0 || s[0] != '-' && s[0] != '+' {
					return step{script: s}, s != ""
				}
			}
			return step{}, false
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
		default:
			return step{rest: args[i:], final: true}, true
		}
	}
	return step{}, false
}

// interp is an interpreter: eval flags run code given inline (the interpreter is the program),
// then withValue flags take a value, then the script.
func interp(eval ...string) func(withValue ...string) wrapper {
	return func(withValue ...string) wrapper {
		return func(args []string) (step, bool) {
			for _, a := range args {
				if slices.Contains(eval, a) {
					return step{}, false
				}
				if len(a) == 0 || a[0] != '-' {
					break
				}
			}
			return step{rest: skipFlags(args, withValue...), final: true}, true
		}
	}
}

// python runs -m MODULE, a script, or -c code (python is the program).
func python(args []string) (step, bool) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-c":
			return step{}, false
		case a == "-m":
			return step{rest: args[i+1:], final: true}, true
		case a == "-X" || a == "-W" || a == "-Q":
			i++
		case a == "--":
			return step{rest: args[i+1:], final: true}, true
		case len(a) > 1 && a[0] == '-':
		default:
			return step{rest: args[i:], final: true}, true
		}
	}
	return step{}, false
}

// subcommand sees through `tool SUB …` with then; any other subcommand is the tool itself.
func subcommand(sub string, then wrapper) wrapper {
	return func(args []string) (step, bool) {
		if len(args) == 0 || args[0] != sub {
			return step{}, false
		}
		return then(args[1:])
	}
}

// optionalRun is bun: `bun run X` or `bun X`.
func optionalRun(args []string) (step, bool) {
	if len(args) > 0 && args[0] == "run" {
		args = args[1:]
	}
	return step{rest: skipFlags(args), final: true}, true
}

// packageRunner is npx, uvx and the like: the program is the package, without version or scope;
// -c runs a command line.
func packageRunner(args []string) (step, bool) {
	for i, a := range args {
		if (a == "-c" || a == "--call") && i+1 < len(args) {
			return step{script: args[i+1]}, true
		}
	}
	rest := skipFlags(args, "-p", "--package", "--from", "--python", "--with", "--spec")
	if len(rest) == 0 {
		return step{}, false
	}
	pkg := rest[0]
	if i := strings.LastIndexByte(pkg, '@'); i > 0 {
		pkg = pkg[:i] // name@version, @scope/name@version
	}
	if i := strings.Index(pkg, "=="); i > 0 {
		pkg = pkg[:i] // uvx name==version
	}
	// Not final: `npx tsx hooks/check.ts` runs check.ts through tsx, itself an interpreter.
	return step{rest: append([]string{pkg}, rest[1:]...)}, true
}

// powershell runs -File SCRIPT; anything else (a -Command) leaves PowerShell the program.
func powershell(args []string) (step, bool) {
	for i, a := range args {
		if strings.EqualFold(a, "-File") || strings.EqualFold(a, "-f") {
			return step{rest: args[i+1:], final: true}, true
		}
	}
	return step{}, false
}
