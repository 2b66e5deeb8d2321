// A native guard plugin (no command hook): throws the AGC text form for chown, crashes on "SEGV".
export const NativeGuard = async () => ({
  "tool.execute.before": async (input, output) => {
    const cmd = output.args?.command ?? ""
    if (cmd.startsWith("chown ")) throw new Error("AGC block: nguard/no-chown/bash.command — ownership changes are refused")
    if (cmd.includes("SEGV")) { const bug = undefined; bug.check() }
  },
})
