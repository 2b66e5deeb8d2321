#!/usr/bin/env python3
"""Writes the differential case sets for perm-probe.sh (../../../../../shared/research/permissions):
cases.json, the set the matcher's tests were made from, and holdout.json, other rules, spellings and
files that the matcher was only measured against. Run: python3 make-cases.py; then
perm-probe.sh cases.json OUT and copy OUT/results.jsonl to cases.results.jsonl (holdout likewise)."""
import json

FILES = {"scripts/check.sh": "#!/bin/sh\necho ok\n", "scripts/d.sh": "#!/bin/sh\necho d\n",
         "scripts/other.sh": "#!/bin/sh\necho o\n", "src/app.py": "print(1)\n", "docs/a.md": "# a\n",
         "secret.txt": "s\n", "lib/src/c.txt": "c\n", ".env": "A=1\n", "config/.env": "B=2\n",
         "tools/build.sh": "#!/bin/sh\necho b\n", "data/x.csv": "a,b\n"}


def bash(c): return {"name": "Bash", "input": {"command": c}}
def write(p): return {"name": "Write", "input": {"file_path": p, "content": "x\n"}}
def read(p): return {"name": "Read", "input": {"file_path": p}}
def fetch(u): return {"name": "WebFetch", "input": {"url": u, "prompt": "summarise"}}


def group(name, env, calls):
    env = dict(env)
    env.setdefault("files", FILES)
    env.setdefault("dirs", ["other"])
    env.setdefault("root_files", {"other/o.txt": "o\n"})
    return [{"id": f"{name}-{i:02d}", "env": env, "call": c} for i, c in enumerate(calls)]


def training():
    out = []
    out += group("bash-local", {"git": "init", "local": {"permissions": {
        "allow": ["Bash(./scripts/check.sh)", "Bash(npm run test:*)", "Bash(git status)", "Bash(make *)", "Bash(npm run lint*)"],
        "deny": ["Bash(git push:*)", "Bash(./scripts/d.sh:*)"], "ask": ["Bash(rm:*)"]}}}, [
        bash("./scripts/check.sh"), bash("scripts/check.sh"), bash("{PROJ}/scripts/check.sh"), bash("bash scripts/check.sh"),
        bash("./scripts/check.sh --fast"), bash("npm run test"), bash("npm run test -- -x"), bash("npm run testing"),
        bash("npm run test:unit"), bash("npm run lint"), bash("npm run linter"), bash("make"), bash("make build"), bash("makefoo"),
        bash("git push origin main"), bash("git push"), bash("FOO=1 git push"), bash("env git push"), bash("./scripts/d.sh"),
        bash("{PROJ}/scripts/d.sh"), bash("rm -rf build"), bash("git status"), bash("ls"), bash("cat src/app.py"),
        bash("./scripts/check.sh && npm run test"), bash("./scripts/check.sh && echo hi"), bash("./scripts/check.sh; ./scripts/other.sh"),
        bash("(npm run test)"), bash("echo $(date)"), bash("npm run test &"), bash("./scripts/check.sh 2>&1"),
        bash("./scripts/check.sh > out.txt"), bash("NODE_ENV=test npm run test"), bash("FOO=1 npm run test"),
        bash("timeout 10 npm run test"), bash("nice npm run test"), bash("env npm run test"), bash("npm  run   test"),
        bash("npm run test | tail -5"), bash("git status && git push")])
    out += group("proj-untrusted", {"project": {"permissions": {
        "allow": ["Bash(npm run test:*)", "Edit(docs/**)"], "deny": ["Read(./secret.txt)"], "ask": ["Bash(npm publish:*)"]}}}, [
        bash("npm run test"), bash("cat secret.txt"), read("{PROJ}/secret.txt"), write("{PROJ}/docs/x.md"),
        bash("npm publish"), read("{PROJ}/src/app.py"), bash("ls src")])
    out += group("proj-trusted", {"trusted": True, "project": {"permissions": {
        "allow": ["Bash(npm run test:*)", "Edit(docs/**)"], "deny": ["Read(./secret.txt)"]}}}, [
        bash("npm run test"), write("{PROJ}/docs/x.md"), write("{PROJ}/lib/docs/y.md"), write("{PROJ}/docs/deep/z.md"),
        bash("cat secret.txt"), write("{PROJ}/src/new.py")])
    out += group("sources", {"user": {"permissions": {"deny": ["Bash(git:*)"], "ask": ["Bash(npm publish:*)"]}},
                             "local": {"permissions": {"allow": ["Bash(git status)", "Bash(npm:*)"]}}}, [
        bash("git status"), bash("git log"), bash("npm publish"), bash("npm test"), bash("npm install left-pad")])
    out += group("files", {"local": {"permissions": {"allow": ["Edit(*.md)", "Read(//{ROOT}/other/**)"],
                                                     "deny": ["Read(*.env)", "Edit(./src/**)"]}}}, [
        write("{PROJ}/README.md"), write("{PROJ}/docs/deep/x.md"), write("{ROOT}/out.md"), read("{PROJ}/.env"),
        read("{PROJ}/config/.env"), write("{PROJ}/src/a.py"), write("{PROJ}/lib/src/b.py"), read("{ROOT}/other/o.txt"),
        read("{ROOT}/o2.txt"), write("{PROJ}/notes.txt"), bash("cat .env"), bash("cat config/.env"), read("{PROJ}/docs/a.md")])
    out += group("write-rules", {"local": {"permissions": {"allow": ["Write(./wr/**)", "Edit", "Edit(*)"]}}}, [
        write("{PROJ}/wr/a.txt"), write("{PROJ}/x.txt"), read("{PROJ}/src/app.py")])
    out += group("write-doublestar", {"local": {"permissions": {"allow": ["Edit(**)"]}}}, [
        write("{PROJ}/wr/a.txt"), write("{PROJ}/x.txt"), write("{ROOT}/outside.txt")])
    out += group("accept-edits", {"args": ["--permission-mode", "acceptEdits"]}, [
        write("{PROJ}/x.txt"), write("{ROOT}/o.txt"), bash("touch a.txt"), bash("npm test"), bash("mkdir newdir"), bash("ls")])
    out += group("dont-ask", {"args": ["--permission-mode", "dontAsk"], "local": {"permissions": {"allow": ["Bash(npm test)"]}}}, [
        bash("npm test"), bash("npm ci"), bash("ls"), write("{PROJ}/x.txt")])
    out += group("plan", {"args": ["--permission-mode", "plan"], "local": {"permissions": {"allow": ["Bash(npm run test:*)", "Edit(**)", "Write"]}}}, [
        bash("npm run test"), write("{PROJ}/x.txt"), read("{PROJ}/src/app.py")])
    out += group("bypass-local", {"local": {"permissions": {"defaultMode": "bypassPermissions"}}}, [
        bash("npm test"), write("{PROJ}/x.txt")])
    out += group("bypass-user", {"user": {"permissions": {"defaultMode": "bypassPermissions", "deny": ["Bash(curl:*)"], "ask": ["Bash(wget:*)"]}}}, [
        bash("npm test"), bash("curl -s http://127.0.0.1:9"), bash("wget -q http://127.0.0.1:9"), write("{PROJ}/x.txt")])
    out += group("tracked-local", {"git": "track-local", "local": {"permissions": {"allow": ["Bash(npm run test:*)"], "deny": ["Bash(npm publish:*)"]}}}, [
        bash("npm run test"), bash("npm publish")])
    out += group("untracked-local", {"git": "init", "local": {"permissions": {"allow": ["Bash(npm run test:*)"]}}}, [
        bash("npm run test"), bash("npm run build")])
    out += group("webfetch", {"local": {"permissions": {"allow": ["WebFetch(domain:example.com)"], "deny": ["WebFetch(domain:evil.test)"]}}}, [
        fetch("https://example.com/a"), fetch("https://sub.example.com/"), fetch("https://evil.test/x"), fetch("https://other.test/")])
    out += group("readonly", {}, [
        bash("ls"), bash("cat src/app.py"), bash("cat {ROOT}/other/o.txt"), bash("ls {ROOT}"), bash("echo hi > out.txt"),
        bash("git status"), bash("git log --oneline"), bash("grep -r print src"), bash("echo hi"), bash("pwd"), bash("wc -l src/app.py"),
        bash("head -1 docs/a.md"), bash("npm test"), bash("python3 src/app.py"), read("{PROJ}/src/app.py"), write("{PROJ}/y.txt"),
        bash("git log $HOME"), bash("cd src && ls"), bash("cd {ROOT}"), bash("cat src/app.py | wc -l")])
    out += group("invalid", {"local": {"permissions": {"allow": ["bash(npm test)", "Bash(npm run build:*)", "Read(src/**:*)", "Bash()"]}}}, [
        bash("npm run build"), bash("npm test")])
    out += group("wrappers", {"local": {"permissions": {"allow": ["Bash(pytest:*)", "Bash(go test:*)"], "deny": ["Bash(terraform apply:*)"]}}}, [
        bash("pytest -q"), bash("timeout 60 pytest -q"), bash("time go test ./..."), bash("nohup pytest"), bash("sudo pytest"),
        bash("env pytest"), bash("LANG=C pytest"), bash("MY=1 pytest"), bash("sudo terraform apply"), bash("FOO=1 terraform apply -auto-approve"),
        bash("nice -n 5 terraform apply"), bash("go test ./... && pytest"), bash("go test ./... || pytest"), bash("go vet ./...")])
    out += group("exact-edges", {"local": {"permissions": {"allow": ["Bash(npm run build )", "Bash( npm run docs)", "Bash(FOO=1 npm run x)", "Bash(npm run a && npm run b)"]}}}, [
        bash("npm run build"), bash("npm run docs"), bash("FOO=1 npm run x"), bash("npm run a && npm run b"), bash("npm run a")])
    out += group("abs-rules", {"local": {"permissions": {"allow": ["Bash({PROJ}/scripts/check.sh)", "Bash(scripts/other.sh:*)"], "deny": ["Bash({PROJ}/scripts/d.sh)"]}}}, [
        bash("{PROJ}/scripts/check.sh"), bash("./scripts/check.sh"), bash("scripts/other.sh"), bash("scripts/other.sh -v"),
        bash("./scripts/other.sh"), bash("{PROJ}/scripts/d.sh"), bash("./scripts/d.sh"), bash("bash {PROJ}/scripts/check.sh")])
    return out


def holdout():
    out = []
    out += group("h-scripts", {"git": "init", "local": {"permissions": {
        "allow": ["Bash(tools/build.sh:*)", "Bash(cargo test:*)", "Bash(python3 -m pytest:*)", "Bash(docker compose up *)", "Bash(go run *)"],
        "deny": ["Bash(tools/deploy.sh)", "Bash(docker rm:*)"], "ask": ["Bash(git reset:*)"]}}}, [
        bash("tools/build.sh"), bash("./tools/build.sh"), bash("{PROJ}/tools/build.sh"), bash("tools/build.sh --release"),
        bash("sh tools/build.sh"), bash("cargo test"), bash("cargo test --all"), bash("cargo testx"), bash("cargo build"),
        bash("python3 -m pytest"), bash("python3 -m pytest -k a"), bash("python3 -m pip install x"), bash("docker compose up"),
        bash("docker compose up -d"), bash("docker compose upx"), bash("go run ."), bash("go run main.go"), bash("gofmt -l ."),
        bash("tools/deploy.sh"), bash("./tools/deploy.sh"), bash("docker rm -f c1"), bash("sudo docker rm c1"),
        bash("git reset --hard"), bash("git reset"), bash("cargo test && cargo build"), bash("cargo test | head"),
        bash("RUST_LOG=debug cargo test"), bash("X=1 cargo test"), bash("timeout 5 cargo test"), bash("nohup cargo test"),
        bash("cargo test > log.txt"), bash("cargo test 2>/dev/null"), bash("(cargo test)"), bash("cargo test `echo a`"),
        bash("ls data"), bash("cat data/x.csv"), bash("cat {ROOT}/other/o.txt"), bash("git diff"), bash("git show HEAD"),
        bash("echo done")])
    out += group("h-files", {"local": {"permissions": {"allow": ["Edit(src/**)", "Read(~/nothere/**)", "Edit(*.txt)"],
                                                       "deny": ["Read(data/**)", "Edit(*.lock)"], "ask": ["Edit(docs/**)"]}}}, [
        write("{PROJ}/src/new.py"), write("{PROJ}/lib/src/new.py"), write("{PROJ}/notes.txt"), write("{PROJ}/deep/a/b.txt"),
        read("{PROJ}/data/x.csv"), bash("cat data/x.csv"), write("{PROJ}/Cargo.lock"), write("{PROJ}/docs/b.md"),
        write("{PROJ}/other.py"), read("{ROOT}/other/o.txt"), write("{ROOT}/x.txt"), read("{PROJ}/src/app.py"),
        bash("head data/x.csv"), write("{PROJ}/sub/y.lock")])
    out += group("h-trust", {"trusted": True, "project": {"permissions": {"allow": ["Bash(cargo test:*)", "Edit(src/**)"]}}}, [
        bash("cargo test"), write("{PROJ}/src/z.py"), write("{PROJ}/z.py")])
    out += group("h-untrusted", {"project": {"permissions": {"allow": ["Bash(cargo test:*)", "Edit(src/**)"], "deny": ["Bash(cargo publish:*)"]}}}, [
        bash("cargo test"), write("{PROJ}/src/z.py"), bash("cargo publish")])
    out += group("h-accept", {"args": ["--permission-mode", "acceptEdits"], "local": {"permissions": {"deny": ["Edit(secret.txt)"]}}}, [
        write("{PROJ}/src/q.py"), write("{PROJ}/secret.txt"), bash("touch q.txt"), bash("cargo build"), write("{ROOT}/q.txt")])
    out += group("h-dontask", {"args": ["--permission-mode", "dontAsk"], "local": {"permissions": {"allow": ["Bash(cargo test:*)", "Edit(src/**)"]}}}, [
        bash("cargo test"), bash("cargo build"), write("{PROJ}/src/a.py"), write("{PROJ}/a.py"), read("{PROJ}/src/app.py")])
    out += group("h-web", {"user": {"permissions": {"allow": ["WebFetch(domain:docs.example.org)"]}}}, [
        fetch("https://docs.example.org/x"), fetch("https://example.org/"), fetch("https://a.docs.example.org/")])
    out += group("h-user-vs-local", {"user": {"permissions": {"allow": ["Bash(cargo:*)"]}},
                                     "local": {"permissions": {"deny": ["Bash(cargo publish:*)"], "ask": ["Bash(cargo update:*)"]}}}, [
        bash("cargo build"), bash("cargo publish"), bash("cargo update"), bash("env cargo publish"), bash("cargo fmt")])
    out += group("h-compound", {"local": {"permissions": {"allow": ["Bash(make:*)", "Bash(npm ci)", "Bash(pip install -r requirements.txt)", "Bash(yarn *)"],
                                                          "deny": ["Bash(npm ci --force)"]}}}, [
        bash("make && make test"), bash("make; npm ci"), bash("npm ci"), bash("npm ci --force"), bash("npm ci && npm ci --force"),
        bash("pip install -r requirements.txt"), bash("pip install -r requirements.txt --user"), bash("yarn"), bash("yarn build"),
        bash("yarnpkg build"), bash("make | tee log"), bash("make\nnpm ci"), bash("make & npm ci"), bash("cd lib && make"),
        bash("make -j$NPROC"), bash("npm ci > /dev/null 2>&1"), bash("echo a && make"), bash("ls {ROOT}/other && make"),
        bash("git log && make"), bash("npm ci; npm test"), bash("CI=true npm ci"), bash("DEBUG=1 npm ci"), bash("command make")])
    return out


for name, cases in (("cases.json", training()), ("holdout.json", holdout())):
    with open(name, "w") as f:
        json.dump({"cases": cases}, f, indent=1)
    print(name, len(cases))
