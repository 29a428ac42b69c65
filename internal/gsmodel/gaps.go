package gsmodel

// A message the model does not understand is reported as GemStone reports it: a
// MessageNotUnderstood naming the receiver and the selector, which on a stone is a defect of the
// code that sent it. Only where public code that ran on a stone shows that the receiver answers
// the selector does the text add that the model lacks it (a model gap), so that a real defect,
// such as nil includesKey:, is never dismissed as the model's.

// modelGap is a selector public code sends, on a stone, to instances of class (or its
// subclasses), which the model does not implement yet.
type modelGap struct {
	class    string
	selector string
	evidence string // repository and path of the code that ran on a stone
}

var modelGaps = []modelGap{
	{"System class", "timeGmt", "GemTalk/mcp_server McpSession.gs (touch, idleSeconds)"},
}

// gapNote answers the model-gap note for sel sent to an instance of cls, or "".
func (s *Session) gapNote(cls *Object, sel string) string {
	for k := cls; k != nil; k = s.rd(k).class.superclass {
		name := s.className(k)
		for _, g := range modelGaps {
			if g.class == name && g.selector == sel {
				return " (a model gap: " + name + " answers #" + sel + " on a stone, as " + g.evidence +
					" shows; the model does not implement it yet)"
			}
		}
	}
	return ""
}
