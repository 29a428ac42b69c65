package fixtureworker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Break is a GCI break sent to a running call.
type Break int

const (
	// SoftBreak stops at the next safe point; GemStone ends the call with error 6003.
	SoftBreak Break = 1
	// HardBreak interrupts at once; GemStone ends the call with error 6004.
	HardBreak Break = 2
)

func (b Break) String() string {
	switch b {
	case SoftBreak:
		return "soft break"
	case HardBreak:
		return "hard break"
	}
	return fmt.Sprintf("break(%d)", int(b))
}

// ErrorNumber is the GemStone error number a call ended by this break reports.
func (b Break) ErrorNumber() int {
	if b == HardBreak {
		return 6004
	}
	return 6003
}

// BreakError says a break ended the call before the tool answered.
type BreakError struct{ Break Break }

func (e *BreakError) Error() string { return "fixture worker: call ended by a " + e.Break.String() }

var (
	// ErrDied is returned by the die tool: the process running the worker must now vanish.
	ErrDied = errors.New("fixture worker: the die tool ended the gem")
	// ErrStopped wraps the context error of a call ended by cancelling its context.
	ErrStopped = errors.New("fixture worker: call stopped")
	// ErrCallInProgress refuses a call made while another is running on the same worker.
	ErrCallInProgress = errors.New("fixture worker: a call is already in progress on this session")
)

// Worker is one session's fixture worker. Its methods are safe for concurrent use, but only
// one Handle runs at a time.
type Worker struct {
	cfg  *config
	busy sync.Mutex // held for the length of one Handle

	// channel is the connection to the router for messages mid-call; nil when the prepare
	// config offered none.
	channel *channelClient

	mu       sync.Mutex // guards view, logLevel, grant and notes
	view     viewState
	logLevel string
	grant    []string // the toolsets offered; nil: the whole surface
	notes    []string // what the note tool kept
}

type refreshAnswer struct {
	Refreshed bool   `json:"refreshed"`
	Conflicts *bool  `json:"conflicts,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

type viewState struct {
	CommitsBehind int  `json:"commitsBehind"`
	Uncommitted   bool `json:"uncommitted"`
	Movable       bool `json:"movable"`
}

// New prepares a worker from the contract's prepare config (the JSON mcpPrepare: receives).
// A config the worker refuses gives a *PrepareError.
func New(configJSON []byte) (*Worker, error) {
	cfg, err := parseConfig(configJSON)
	if err != nil {
		return nil, err
	}
	behind, err := cfg.startingCommitsBehind()
	if err != nil {
		return nil, err
	}
	w := &Worker{cfg: cfg, view: viewState{CommitsBehind: behind, Movable: true},
		channel: newChannelClient(cfg.Channel), logLevel: "info"}
	if cfg.Grant != nil {
		w.grant = slices.Clone(cfg.Grant.Toolsets)
	}
	return w, nil
}

// WorkerClass is the class name the config prepared.
func (w *Worker) WorkerClass() string { return w.cfg.WorkerClass }

// ServerName is the serverInfo name initialize reports.
func (w *Worker) ServerName() string {
	if w.cfg.ServerName != nil {
		return *w.cfg.ServerName
	}
	return DefaultServerName
}

// PrepareAnswer is the contract's successful prepare answer for a gem with that session number.
func (w *Worker) PrepareAnswer(gemSession int) []byte {
	answer := map[string]any{
		"ok":          true,
		"gemSession":  gemSession,
		"workerClass": w.cfg.WorkerClass,
		"serverName":  w.ServerName(),
		"tools":       w.surfaceToolCount(),
	}
	if g := w.grantAnswer(); g != nil {
		answer["grant"] = g
	}
	out, _ := json.Marshal(answer)
	return out
}

// Handle answers one JSON-RPC message (mcpHandle:). A nil reply means nothing is sent back.
// Cancelling ctx stops the call whatever it is doing.
func (w *Worker) Handle(ctx context.Context, msg []byte) ([]byte, error) {
	return w.HandleWithBreaks(ctx, msg, nil)
}

// HandleWithBreaks is Handle with a channel on which the caller sends breaks while the call
// runs. A nil channel never delivers one.
func (w *Worker) HandleWithBreaks(ctx context.Context, msg []byte, breaks <-chan Break) ([]byte, error) {
	if !w.busy.TryLock() {
		return nil, ErrCallInProgress
	}
	defer w.busy.Unlock()
	if ctx == nil {
		ctx = context.Background()
	}
	c := &call{ctx: ctx, breaks: breaks, w: w}
	return c.dispatch(msg)
}

// ViewStatus is the contract's mcpViewStatus answer.
func (w *Worker) ViewStatus() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	out, _ := json.Marshal(w.view)
	return out
}

// RefreshView is the contract's mcpRefreshView answer: the view catches up unless it is
// not movable, and uncommitted work is kept.
func (w *Worker) RefreshView() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.view.Movable {
		return marshal(refreshAnswer{Reason: "the view is not movable (fixture knob set_view_status movable:false)"})
	}
	w.view.CommitsBehind = 0
	return marshal(refreshAnswer{Refreshed: true, Conflicts: new(bool)})
}

func (w *Worker) setView(update func(*viewState)) viewState {
	w.mu.Lock()
	defer w.mu.Unlock()
	update(&w.view)
	return w.view
}
