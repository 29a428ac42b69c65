package fixtureworker

// The worker contract's refusal of writes on pooled requests: a request the router runs on a
// stateless pool gem begins with an abort, so work a tool left there would be lost before the
// next request; the Smalltalk worker refuses a tool that may change the repository on such a
// request (McpDispatcher, kind sessionRequired) and the fixture worker refuses the same, so a
// test against the fixtures sees a regression of that refusal as the real worker would show it.

// readOnly says the tool changes nothing a client keeps (its readOnlyHint).
func (t *tool) readOnly() bool {
	h, ok := writingHints[t.name]
	return !ok || h.readOnly
}

// refusePoolWrite is the sessionRequired tool error for a tool that may change the repository
// on a pooled request; nil for any other call.
func (c *call) refusePoolWrite(t *tool) map[string]any {
	if !c.pooled() || t.readOnly() {
		return nil
	}
	return toolError("sessionRequired", t.name+" may change the repository, and this call names no GemStone session, so its work "+
		"could not be kept: call open_session, then pass the session it answers as the session argument of this call and of every "+
		"later call (commit with that session keeps the work; close_session ends it)")
}
