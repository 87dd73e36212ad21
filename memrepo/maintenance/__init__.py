"""The daily maintenance pass (reference §7, §5b; issue #32): what keeps a memory from
growing forever without a person typing anything. `run.maintain` does the work,
`state` remembers when each part last ran, `background` starts it beside an ordinary
command or a server when it is due."""
