// agc-hooks.js: run AGC command hooks (Claude Code's protocol: JSON on stdin, exit codes, a JSON
// answer on stdout) from OpenCode and Kilo Code, which have no command hooks, only plugins.
//
// Install: copy this one file into the project's plugin folder, .opencode/plugins/ (OpenCode) or
// .kilo/plugins/ (Kilo Code). The hooks it runs are the PreToolUse and PostToolUse command hooks
// of a Claude-shaped settings file, the first found of .opencode/agc-hooks.json (.kilo/agc-hooks.json
// under Kilo), .claude/settings.json with .claude/settings.local.json; $AGC_HOOKS_SETTINGS names
// another. The hook sees Claude Code's shape: OpenCode's tool names are Claude Code's (bash -> Bash,
// write -> Write, edit -> Edit, read -> Read, glob -> Glob, grep -> Grep, webfetch -> WebFetch,
// task -> Task, todowrite -> TodoWrite, skill -> Skill) and so are their argument fields (filePath ->
// file_path, oldString -> old_string, newString -> new_string, replaceAll -> replace_all; command,
// content and the rest as they are); other tools and fields are passed as they are, and OpenCode's
// own name and arguments ride along as opencode_tool_name and opencode_tool_input. A matcher is
// matched against either name ignoring case ("Bash" and "bash" match bash). When agc-record is on the PATH and
// the command does not run it already, the command runs through it, so the recorder's log
// (.agc/hook-log.jsonl in the project) names the runtime from the stdin's plugin_host.
//
// Stdin: {session_id, cwd, hook_event_name, tool_name, tool_input, tool_use_id (OpenCode's callID),
// opencode_tool_name, opencode_tool_input, plugin_hook, plugin_host: "opencode" | "kilo"};
// PostToolUse adds tool_response. Environment:
// CLAUDE_PROJECT_DIR and OPENCODE_PROJECT_DIR (KILO_PROJECT_DIR under Kilo) = the project.
//
// Answers, Claude Code's rules, carried out with what a plugin can do:
//   PreToolUse: exit 2 -> throw stderr (the call does not run; the model gets the text as the
//     tool's error); permissionDecision "deny" or "ask" (nobody can be asked), or decision "block"
//     -> throw the reason and the context; updatedInput -> its fields named back as OpenCode's
//     (file_path -> filePath, …) and merged into the call's arguments in place (OpenCode runs what
//     that object holds; its permission rules are still applied to it);
//     additionalContext -> added to the call's output.
//   PostToolUse: decision "block" -> its reason added to the output; additionalContext -> added.
//   A crash (another exit status), a time-out or stdout that is not JSON: the call goes ahead
//     (fails open, as in Claude Code) and a line on stderr says so.
// Text added to an output is wrapped in <agc-hook event="PreToolUse">…</agc-hook>, so that the
// session's own records (opencode export, run --format json) tell which hook event sent it.
import { spawnSync } from "child_process"
import fs from "fs"
import path from "path"
import { fileURLToPath } from "url"

const host = () => {
  const here = fileURLToPath(import.meta.url)
  return process.env.KILO_PID || process.env.KILO || /[\\/]\.kilo(code)?[\\/]/.test(here) ? "kilo" : "opencode"
}

const onPath = (name) =>
  (process.env.PATH || "").split(path.delimiter).map((d) => path.join(d, name)).find((p) => {
    try { fs.accessSync(p, fs.constants.X_OK); return true } catch { return false }
  })

const readJSON = (p) => { try { return JSON.parse(fs.readFileSync(p, "utf8")) } catch { return null } }

// settings lists the {event, matcher, command, timeout} of the first settings file found.
const settings = (dir, runtime) => {
  const own = path.join(dir, runtime === "kilo" ? ".kilo" : ".opencode", "agc-hooks.json")
  const files = process.env.AGC_HOOKS_SETTINGS ? [process.env.AGC_HOOKS_SETTINGS]
    : fs.existsSync(own) ? [own] : [path.join(dir, ".claude", "settings.json"), path.join(dir, ".claude", "settings.local.json")]
  const out = []
  for (const f of files) {
    const hooks = (readJSON(path.resolve(dir, f)) || {}).hooks || {}
    for (const event of ["PreToolUse", "PostToolUse"]) {
      for (const group of hooks[event] || []) {
        for (const h of group.hooks || []) {
          if (h.type === "command" && typeof h.command === "string") out.push({ event, matcher: group.matcher || "", command: h.command, timeout: h.timeout })
        }
      }
    }
  }
  return out
}

// Claude Code's names of OpenCode's tools, and of their argument fields (those of a tool named here).
const claudeTools = { bash: "Bash", write: "Write", edit: "Edit", read: "Read", glob: "Glob", grep: "Grep", webfetch: "WebFetch", task: "Task", todowrite: "TodoWrite", skill: "Skill" }
const claudeFields = { filePath: "file_path", oldString: "old_string", newString: "new_string", replaceAll: "replace_all" }
const openCodeFields = Object.fromEntries(Object.entries(claudeFields).map(([k, v]) => [v, k]))

const claudeTool = (tool) => (Object.hasOwn(claudeTools, tool) ? claudeTools[tool] : tool)

// renamed is args with its fields renamed by names when tool is one of claudeTools; else args.
const renamed = (tool, args, names) => {
  if (!Object.hasOwn(claudeTools, tool) || !args || typeof args !== "object" || Array.isArray(args)) return args
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [Object.hasOwn(names, k) ? names[k] : k, v]))
}

const matches = (matcher, tool) => {
  if (!matcher || matcher === "*") return true
  const names = [tool, claudeTool(tool)]
  try { const re = new RegExp(`^(?:${matcher})$`, "i"); return names.some((n) => re.test(n)) } catch { return names.some((n) => matcher.toLowerCase() === n.toLowerCase()) }
}

export const AgcHooks = async ({ directory }) => {
  const runtime = host()
  const recorder = onPath("agc-record")
  const notes = new Map() // callID -> text to add to the call's output
  const run = (hook, stdin) => {
    const command = recorder && !/\bagc-record\b/.test(hook.command)
      ? `${JSON.stringify(recorder)} --log ${JSON.stringify(path.join(directory, ".agc", "hook-log.jsonl"))} -- /bin/sh -c ${JSON.stringify(hook.command)}`
      : hook.command
    const env = { ...process.env, CLAUDE_PROJECT_DIR: directory, [`${runtime.toUpperCase()}_PROJECT_DIR`]: directory }
    const r = spawnSync("/bin/sh", ["-c", command], { input: stdin, cwd: directory, encoding: "utf8", env, timeout: (hook.timeout || 60) * 1000 })
    const stderr = (r.stderr || "").trim()
    if (r.error || r.status === null) {
      console.error(`agc-hooks: ${hook.command}: ${r.error ? r.error.message : "killed"}; the call goes ahead`)
      return {}
    }
    if (r.status === 2) return { exit2: stderr || "blocked by a hook" }
    if (r.status !== 0) {
      console.error(`agc-hooks: ${hook.command}: exit ${r.status}; the call goes ahead: ${stderr.split("\n").pop()}`)
      return {}
    }
    const text = (r.stdout || "").trim()
    if (!text) return {}
    try { return { answer: JSON.parse(text) } } catch {
      console.error(`agc-hooks: ${hook.command}: stdout is not JSON; ignored`)
      return {}
    }
  }
  const note = (callID, event, text) => {
    if (typeof text !== "string" || !text) return
    const tagged = `<agc-hook event="${event}">\n${text}\n</agc-hook>`
    notes.set(callID, [notes.get(callID), tagged].filter(Boolean).join("\n"))
  }
  const hooksFor = (event, tool) => settings(directory, runtime).filter((h) => h.event === event && matches(h.matcher, tool))
  const stdinOf = (event, input, args, extra) => JSON.stringify({
    session_id: input.sessionID, cwd: directory, hook_event_name: event, tool_name: claudeTool(input.tool),
    tool_input: renamed(input.tool, args, claudeFields), tool_use_id: input.callID,
    opencode_tool_name: input.tool, opencode_tool_input: args,
    plugin_hook: event === "PreToolUse" ? "tool.execute.before" : "tool.execute.after", plugin_host: runtime, ...extra,
  })
  return {
    "tool.execute.before": async (input, output) => {
      for (const hook of hooksFor("PreToolUse", input.tool)) {
        const { exit2, answer } = run(hook, stdinOf("PreToolUse", input, output.args))
        if (exit2) throw new Error(exit2)
        if (!answer) continue
        const out = answer.hookSpecificOutput || {}
        const decision = out.permissionDecision || (answer.decision === "block" ? "deny" : "")
        if (decision === "deny" || decision === "ask")
          throw new Error([out.permissionDecisionReason || answer.reason || "blocked by a hook", out.additionalContext].filter(Boolean).join("\n"))
        if (out.updatedInput && typeof out.updatedInput === "object" && !Array.isArray(out.updatedInput))
          Object.assign(output.args, renamed(input.tool, out.updatedInput, openCodeFields))
        note(input.callID, "PreToolUse", out.additionalContext)
      }
    },
    "tool.execute.after": async (input, output) => {
      for (const hook of hooksFor("PostToolUse", input.tool)) {
        const { exit2, answer } = run(hook, stdinOf("PostToolUse", input, input.args, { tool_response: output.output }))
        if (exit2) note(input.callID, "PostToolUse", exit2)
        if (!answer) continue
        if (answer.decision === "block") note(input.callID, "PostToolUse", answer.reason)
        note(input.callID, "PostToolUse", (answer.hookSpecificOutput || {}).additionalContext)
      }
      const text = notes.get(input.callID)
      notes.delete(input.callID)
      if (text && typeof output.output === "string") output.output += "\n\n" + text
    },
  }
}
