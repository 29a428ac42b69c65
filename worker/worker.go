// Package worker is the seam between the HTTP front end and the gems that run tools.
//
// The router never talks GCI. It asks a Launcher for a Gem (one GemStone login, one
// transaction view, one call at a time), forwards raw JSON-RPC bytes through
// Gem.Handle, and ends the gem with Close. Everything a Gem does on the Smalltalk side is
// written down in docs/worker-contract.md; this package is that contract's Go half.
//
//	router ──Launch──▶ Launcher ──login+prepare──▶ Gem ──Handle(bytes)──▶ worker gem
//	  │                                             │
//	  └──StopSession / ReadStone──▶ Control ◀───────┘ (escalation's last step)
//
// Two implementations exist: package gciworker drives real gems (or the test stand-in)
// through the gemstone binding, and package workertest runs the fixture worker in-process
// for the router's unit tests. Neither the router nor workertest imports the binding.
//
// Errors: a Launcher or a Gem reports a failure as a *Failure (failure.go): its kind, GemStone
// number, whether the gem is gone, the escalation step that ended the call, and a text a
// client may see. The router reads every error through FailureOf and nothing else.
package worker

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
)

// ContractVersion is the version of docs/worker-contract.md this package speaks. It is
// sent in every prepare config; a worker that does not know it refuses the prepare.
const ContractVersion = 1

// PasswordKind says how LoginSpec.Password is to be presented to the stone.
type PasswordKind int

const (
	// PasswordPlain is an ordinary GemStone password.
	PasswordPlain PasswordKind = iota
	// PasswordOneTime is a one-time password minted by another session (GCI_LOGIN_ONETIME_PASSWORD).
	PasswordOneTime
	// PasswordJWT is a bearer token the stone validates itself (GCI_LOGIN_JWT_PASSWORD, 3.7.5+).
	PasswordJWT
)

// LoginSpec says where and as whom a gem logs in: the one login the router, its identity
// plug-ins and every worker share (gciworker turns it into the binding's own LoginParams).
// Password is a secret: never log a LoginSpec, and never put StoneNRS or GemNRS in anything
// a client can see.
type LoginSpec struct {
	StoneNRS     string
	GemNRS       string
	User         string
	Password     string
	PasswordKind PasswordKind
}

// PrepareConfig is the JSON document sent once per session, right after login, through the
// contract's prepare entry. Field meanings are in docs/worker-contract.md.
type PrepareConfig struct {
	Contract         int                                   `json:"contract"`
	WorkerClass      string                                `json:"workerClass"`
	Toolsets         []string                              `json:"toolsets,omitempty"`
	ToolsetOptions   map[string]map[string]json.RawMessage `json:"toolsetOptions,omitempty"`
	ServerName       *string                               `json:"serverName,omitempty"`
	ServerVersion    *string                               `json:"serverVersion,omitempty"`
	ServerTitle      *string                               `json:"serverTitle,omitempty"`
	Instructions     *string                               `json:"instructions,omitempty"`
	ProtocolVersions []string                              `json:"protocolVersions"`
	CacheName        string                                `json:"cacheName"`
	ResultCap        int                                   `json:"resultCap"`
	FrontEnd         FrontEnd                              `json:"frontEnd"`
	// Lifetime names the deadlines that end a session and with it any uncommitted work, so the
	// worker can say them when the session first holds changes; nil says nothing about them.
	Lifetime *Lifetime `json:"lifetime,omitempty"`
	// Channel is where the worker may connect to speak during a call (docs/channel.md); nil means
	// the router offers no channel and the worker answers only through its results.
	Channel *Channel `json:"channel,omitempty"`
	// Grant, when set, narrows what the client is offered to these toolsets of the surface
	// (the token's scopes chose them); nil offers the whole surface.
	Grant *Grant `json:"grant,omitempty"`
}

// Grant is the part of the tool surface a client may see and call: the toolsets its token's
// scopes cover. A tool of the surface outside it is not listed, and calling it is answered
// with the JSON-RPC error of kind NotGrantedKind naming its toolset.
type Grant struct {
	Toolsets []string `json:"toolsets"`
}

// NotGrantedKind is the data.kind of the worker's error for a tool that exists in the
// surface but outside the session's grant; data.toolset names the toolset that would cover it.
const NotGrantedKind = errkind.ToolNotGranted

// Granter is a Gem whose grant can change between calls (the contract's mcpGrant: entry):
// the same session is offered more after a step-up, less after a narrower token, and nothing
// it did is lost. A Gem that is not a Granter cannot serve a scope mapping.
type Granter interface {
	// Grant replaces the session's grant and answers the grant the worker now applies.
	Grant(ctx context.Context, g Grant) (Grant, error)
}

// FrontEnd identifies the router that opened the session, for the worker's log and status.
type FrontEnd struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	RouterID string `json:"routerId"`
}

// Lifetime is what the router's lifetime policy will end a session for, in whole seconds; a
// nil field is a deadline that is switched off.
type Lifetime struct {
	IdleSeconds           *int `json:"idleSeconds,omitempty"`
	StreamlessIdleSeconds *int `json:"streamlessIdleSeconds,omitempty"`
}

// Channel is where a worker may connect to send messages mid-call, and the secret that
// proves the connection is this session's.
type Channel struct {
	Address string `json:"address"`
	Secret  string `json:"secret"`
}

// PrepareResult is the worker's answer to a successful prepare.
type PrepareResult struct {
	GemSession  int    `json:"gemSession"`
	WorkerClass string `json:"workerClass"`
	ServerName  string `json:"serverName"`
	Tools       int    `json:"tools"`
	// Grant echoes the prepare config's grant: a worker that answers none did not apply it.
	Grant *Grant `json:"grant,omitempty"`
}

// ViewStatus is the worker's answer to the contract's view-status entry.
type ViewStatus struct {
	// CommitsBehind is how many commits the gem's view is behind the stone; -1 if unknown.
	CommitsBehind int `json:"commitsBehind"`
	// Uncommitted says the session holds changes a refresh must keep.
	Uncommitted bool `json:"uncommitted"`
	// Movable is false when GemStone would refuse to move the view (after a failed commit,
	// or inside a nested transaction).
	Movable bool `json:"movable"`
}

// RefreshResult is the worker's answer to the contract's refresh entry.
type RefreshResult struct {
	Refreshed bool `json:"refreshed"`
	// Conflicts is true when pending writes now conflict with what others committed.
	Conflicts bool `json:"conflicts"`
	// Reason is set when Refreshed is false.
	Reason string `json:"reason,omitempty"`
}

// StoneStatus holds the stone-wide readings the lifetime policy needs. A reading that could
// not be taken is -1, never 0.
type StoneStatus struct {
	CommitRecordBacklog int
	SignalAbortBacklog  int
	// OldestCRSessions lists the GemStone session numbers that reference the oldest commit record.
	OldestCRSessions []int
}

// Gem is one logged-in, prepared worker gem. A Gem runs one call at a time; a second
// concurrent call fails fast with an error rather than queueing (the router queues).
//
// Cancelling the context of Handle escalates soft break → hard break → stop session; the
// returned *Failure says which step ended the call (Failure.Ending).
type Gem interface {
	// Handle forwards one JSON-RPC message and answers the worker's reply bytes (UTF-8 JSON),
	// or nil when the message needs no reply (a notification).
	Handle(ctx context.Context, message []byte) ([]byte, error)
	// ViewStatus asks how far behind the repository the gem's view is.
	ViewStatus(ctx context.Context) (ViewStatus, error)
	// RefreshView moves the view to the current commit, keeping uncommitted work.
	RefreshView(ctx context.Context) (RefreshResult, error)
	// Prepared is what the worker answered at prepare.
	Prepared() PrepareResult
	// Close logs the gem out. It is safe to call more than once and after the gem died.
	Close(ctx context.Context) error
}

// Launcher logs gems in and prepares them.
type Launcher interface {
	// Launch logs a new gem in, aborts the login's spurious uncommitted state, and sends the
	// prepare config. On any failure the login is undone before Launch returns.
	Launch(ctx context.Context, login LoginSpec, config PrepareConfig) (Gem, error)
}

// Control is the front end's own login, used only for what one gem cannot do for itself.
// It is never handed to a client.
type Control interface {
	// StopSession ends another GemStone session by number (System stopSession:).
	StopSession(ctx context.Context, gemSession int) error
	// ReadStone takes the stone-wide readings, each -1 when it could not be read.
	ReadStone(ctx context.Context) (StoneStatus, error)
	// MintOneTimePassword mints a password that logs user in once, within validFor, with
	// PasswordOneTime (docs/read-only-user.md). The answer is a secret: never log it.
	MintOneTimePassword(ctx context.Context, user string, validFor time.Duration) (string, error)
	// Close logs the control session out.
	Close(ctx context.Context) error
}
