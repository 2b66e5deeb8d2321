package codex

// SkipEvents is the skip reason of every codex --json event, for the external tests.
const SkipEvents = skipCodexEvents
