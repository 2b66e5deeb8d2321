// A native guard plugin: throws the AGC JSON for mkfs, crashes on "OOPS" (fails closed).
export const NativeGuard = async () => ({
  "tool.execute.before": async (input, output) => {
    const cmd = output.args?.command ?? ""
    if (cmd.startsWith("mkfs")) throw new Error(JSON.stringify({ agc: "0.1", gate: { id: "knative", kind: "runtime" }, verdict: "block", findings: [{ rule: "no-mkfs", target: "bash.command", message: "formatting is refused." }] }))
    if (cmd.includes("OOPS")) { const cfg = null; cfg.level }
  },
})
