// Package errkind names the machine-readable kinds of the errors the Go side writes or reads:
// error.data.kind of a JSON-RPC error (a gate's refusal, a failed call, a failed login), the
// kind of a tool error the front end answers itself (structuredContent.error.kind), and the
// kinds of the router's answers to a worker on its channel. Code and tests use these names;
// docs/transport.md ("Reference: error kinds") lists the same set, and a test holds the two
// together. A kind a worker writes for its own tools travels through the router unread and is
// not named here, except the few the router reads (ToolNotGranted, BadGrant, and the prepare
// refusals it gives advice on).
package errkind

// Gate refusals: the request was not let in.
const (
	HostRefused                = "hostRefused"
	OriginRefused              = "originRefused"
	UnsupportedProtocolVersion = "unsupportedProtocolVersion"
	SessionNotFound            = "sessionNotFound"
	SessionRequired            = "sessionRequired"
	MethodNotAllowed           = "methodNotAllowed"
	NotAcceptable              = "notAcceptable"
	BodyTooLarge               = "bodyTooLarge"
	BadBody                    = "badBody"
	ReadTimeout                = "readTimeout"
	Unauthorized               = "unauthorized"
	InsufficientScope          = "insufficientScope"
)

// Refusals of a message the front end read.
const (
	AlreadyInitialized = "alreadyInitialized"
	DuplicateID        = "duplicateId"
	BatchRefused       = "batchRefused"
	MethodNotFound     = "methodNotFound"
	InvalidParams      = "invalidParams"
	QueueFull          = "queueFull"
	ResponseTooLarge   = "responseTooLarge"
	SessionLimit       = "sessionLimit"
)

// A call that did not end with its worker's answer.
const (
	SessionGone    = "sessionGone"
	RequestTimeout = "requestTimeout"
	ShuttingDown   = "shuttingDown"
	Cancelled      = "cancelled"
	ClientGone     = "clientGone"
	WorkerError    = "workerError"
)

// A failed login or prepare of a worker gem (data.number holds the GemStone error).
const (
	LoginDenied              = "loginDenied"
	LoginTimeout             = "loginTimeout"
	LoginFailed              = "loginFailed"
	LibraryNotFound          = "libraryNotFound"
	WorkerUserNotProvisioned = "workerUserNotProvisioned"
	StoneUnreachable         = "stoneUnreachable"
	GemStartFailed           = "gemStartFailed"
	WorkerClassNotFound      = "workerClassNotFound"
	Break                    = "break"
	Busy                     = "busy"
	// The front end's own part of opening a session failed: no session id, its prepare hook
	// (the channel's address and secret), or a worker that does not confirm its grant.
	InternalError    = "internalError"
	PrepareFailed    = "prepareFailed"
	GrantUnsupported = "grantUnsupported"
	// The worker's own prepare refusals the router advises on; BadConfig is also the kind of a
	// refusal that names none.
	BadConfig       = "badConfig"
	ToolsetNotFound = "toolsetNotFound"
	BadOption       = "badOption"
	ContractVersion = "contractVersion"
)

// The worker's answers the router reads: a call outside the session's grant, a grant refused.
const (
	ToolNotGranted = "toolNotGranted"
	BadGrant       = "badGrant"
)

// The 2026-07-28 revision's refusals.
const (
	InvalidMeta           = "invalidMeta"
	HeaderMismatch        = "headerMismatch"
	TooManyParamHeaders   = "tooManyParamHeaders"
	MissingCapability     = "missingCapability"
	InvalidInputResponses = "invalidInputResponses"
	BadRequestState       = "badRequestState"
	TooManyCalls          = "tooManyCalls"
	InputAbandoned        = "inputAbandoned"
	PoolBusy              = "poolBusy"
	UnknownTask           = "unknownTask"
	TaskResultTooLarge    = "taskResultTooLarge"
	TooManyListeners      = "tooManyListeners"
	SubscriptionTooLarge  = "subscriptionTooLarge"
)

// The tool error of a call naming a session the caller does not hold (open_session's handle).
const UnknownSession = "unknownSession"

// The worker-to-router channel: a POST stream that cannot be resumed, an answer too large
// for a frame, and the router's errors answering a worker's request to its client.
const (
	StreamNotResumable = "streamNotResumable"
	AnswerTooLarge     = "answerTooLarge"
	Timeout            = "timeout"
	CallEnded          = "callEnded"
	SessionEnded       = "sessionEnded"
	NoStream           = "noStream"
	NoClient           = "noClient"
	TooManyRequests    = "tooManyRequests"
)
