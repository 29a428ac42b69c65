// Package fixtureworker is the test stand-in's MCP worker: a complete implementation of the
// worker side of docs/worker-contract.md whose tools are test fixtures, not GemStone tools.
// It runs inside the stand-in gem process (test/standin/gem) and, unchanged, in-process in
// the router's unit tests. It touches no file and no process; its one socket is the
// worker-to-router channel (channel.go), dialled only when the prepare config offers one and a
// tool speaks during its call.
//
// # API
//
//	w, err := fixtureworker.New(configJSON)          // the contract's mcpPrepare: config
//	answer := w.PrepareAnswer(gemSession)             // {"ok":true,"gemSession":n,...}
//	answer := fixtureworker.PrepareFailure(err)       // {"ok":false,"error":{kind,message}}
//	reply, err := w.Handle(ctx, msg)                  // mcpHandle: (nil reply = notification)
//	reply, err := w.HandleWithBreaks(ctx, msg, breaks) // same, with GCI-style breaks
//	status := w.ViewStatus()                          // mcpViewStatus answer (JSON)
//	result := w.RefreshView()                         // mcpRefreshView answer (JSON)
//
// A Worker serves one session and runs one call at a time; a second concurrent call fails
// at once with ErrCallInProgress, as a gem refuses a second GCI call.
//
// # Ending a call: soft break, hard break, stop
//
// A running call can be ended three ways, modelling what the router's escalation does to a
// real gem:
//
//   - a SoftBreak sent on the breaks channel ends `sleep` (GemStone error 6003);
//   - a HardBreak ends `sleep` and `sleep_soft_immune` (6004);
//   - cancelling ctx ends every call, `sleep_immune` included: it models the gem being
//     stopped (System stopSession:) or killed, which nothing in Smalltalk can resist.
//
// A call ended by a break returns a *BreakError naming the break; one ended by ctx returns
// an error wrapping ctx.Err() and ErrStopped. The `die` tool returns ErrDied: the stand-in
// gem exits the process when it sees it, an in-process fake marks its gem dead. Every other
// outcome, including every JSON-RPC and tool error, is reply bytes with a nil error.
//
// # Protocol behaviour (what test/contract checks)
//
// A body that is not UTF-8 is -32700 naming the byte offset of the first bad byte
// (error.data.offset); malformed JSON is -32700; a message that is not a JSON-RPC 2.0
// object is -32600; a notification (no id) and a response get no reply; an unknown method
// is -32601; `ping` answers {}; `initialize` negotiates from the config's protocolVersions
// (the client's version when listed, else the first); `tools/list` answers one page, and a
// cursor is -32602; `tools/call` with a missing or unknown tool name is -32602, and with
// arguments that do not match the tool's closed schema it is an isError result with
// structuredContent.error.kind "invalidParams". A failing tool is an isError result with a
// kind too.
//
// # Fixture tools
//
//	echo {text}               the same text
//	sleep {ms}                waits ms; ends early at any break
//	sleep_soft_immune {ms}    waits ms; ignores soft breaks, ends at a hard break
//	sleep_immune {ms}         waits ms; ignores both breaks (only a stop ends it early)
//	fail {kind, message?}     an isError result with structuredContent.error.kind = kind
//	big {n}                   a text of exactly n ASCII bytes (10 MiB and more is fine)
//	unicode {text}            content[0] echoes text, content[1] is AstralText
//	die {}                    ErrDied (the stand-in gem exits mid-call)
//	set_view_status {commitsBehind?, uncommitted?, movable?}
//	                          sets what mcpViewStatus reports next (a test knob)
//	flood {kind, count, size} sends count notifications through the channel during the call,
//	                          each padded with size bytes (at most 512 KiB), then answers how
//	                          many it sent; kind progress (needs _meta.progressToken) or log
//	                          (info, subject to logging/setLevel) are bound to the call and
//	                          go to its POST stream, resourceUpdated is bound to no call and
//	                          goes to the session's GET stream; a break ends it. Without a
//	                          channel it is an isError result of kind channelUnavailable
//
// # Grant toolsets (grant.go)
//
// Outside the default surface, for the network-facing mode's scope grants: a config that names
// them in toolsets serves them. WriteToolsetName holds note {text} (keeps a line in the
// session), ExecToolsetName holds notes {} (answers the kept lines), so a test can see the
// session outlive a change of its grant. A config's grant {toolsets} (each in the surface, else
// badConfig) limits tools/list to those toolsets, is echoed in the prepare answer, and makes a
// call to another tool of the surface the -32001 error of kind NotGrantedKind naming its
// toolset; Worker.Grant is the mcpGrant: entry (badGrant for a name outside the surface).
//
// # Conformance fixtures (conformance.go)
//
// The official MCP conformance suite's fixed names, with the capabilities they need declared
// at initialize (tools, logging, completions, prompts, resources with subscribe):
//
//	test_simple_text, test_image_content, test_audio_content, test_embedded_resource,
//	test_multiple_content_types, test_error_handling, json_schema_2020_12_tool
//	                          answered directly
//	test_tool_with_logging    three notifications/message at info, 50 ms apart (filtered by
//	                          the session's logging/setLevel)
//	test_tool_with_progress   progress 0, 50, 100 of 100 for the call's _meta.progressToken
//	test_sampling {prompt}    sampling/createMessage to the client; answers its text
//	test_elicitation {message}, test_elicitation_sep1034_defaults, test_elicitation_sep1330_enums
//	                          elicitation/create to the client; answers its action and content
//	test_reconnection         asks the router to close the call's stream, answers 200 ms later
//	resources/list, resources/templates/list, resources/read (test://static-text,
//	test://static-binary, test://watched-resource, test://template/{id}/data),
//	resources/subscribe (announces test://watched-resource on the GET stream), unsubscribe,
//	prompts/list, prompts/get (test_simple_prompt, test_prompt_with_arguments,
//	test_prompt_with_embedded_resource, test_prompt_with_image), completion/complete,
//	logging/setLevel
//
// The ones that speak during the call do it through the channel exactly as a Smalltalk worker
// would (channel.go: framing, hello, a request's wait that a break ends, a flush before the
// answer). Without a channel they answer an isError result of kind channelUnavailable.
//
// Text results longer than the config's resultCap characters (when resultCap > 0) are cut
// and end with CutMarker, as the contract asks of every worker; set resultCap to 0 for big
// payload tests.
//
// # Prepare config
//
// The contract's fields are honoured: contract must be 1 (else kind contractVersion);
// workerClass must be non-empty (else badConfig); protocolVersions must be non-empty (else
// badConfig); toolsets, when given, may name only ToolsetName, WriteToolsetName and
// ExecToolsetName (else toolsetNotFound);
// toolsetOptions may carry only ToolsetName's options, of which there is one,
// "commitsBehind" (an integer: the view status the worker starts with; else badOption);
// serverName/serverVersion/serverTitle/instructions override the defaults, instructions ""
// meaning none. Unknown top-level fields are ignored (the contract lets fields be added).
package fixtureworker
