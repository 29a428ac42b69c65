package fixtureworker

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Toolsets beside ToolsetName, for the network-facing mode's scope grants: a config names
// them in toolsets to put them in the surface (the default surface is ToolsetName alone).
// Together with ToolsetName they make three surfaces a token's scopes can choose between.
const (
	// WriteToolsetName holds note, which keeps a line of text in the session.
	WriteToolsetName = "McpFixtureWriteToolset"
	// ExecToolsetName holds notes, which answers the lines note kept, so a test can see that
	// a session's state outlived a change of its grant.
	ExecToolsetName = "McpFixtureExecToolset"
)

// NotGrantedKind is the data.kind of the error answering a call of a tool that is in the
// surface but outside the session's grant (worker contract, "mcpGrant:").
const NotGrantedKind = "toolNotGranted"

// CodeNotGranted is that error's JSON-RPC code.
const CodeNotGranted = -32001

var toolsetNames = []string{ToolsetName, WriteToolsetName, ExecToolsetName}

var grantTools = []*tool{
	{name: "note", toolset: WriteToolsetName, doc: "Keeps a line of text in this session (notes answers them).",
		args: []argSpec{{name: "text", kind: argString, required: true, doc: "the line to keep"}},
		run: func(c *call, a map[string]any) (any, error) {
			n := c.w.addNote(a["text"].(string))
			return c.text(fmt.Sprintf("noted (%d in this session)", n)), nil
		}},
	{name: "notes", toolset: ExecToolsetName, doc: "Answers the lines note kept in this session, one per line.",
		run: func(c *call, _ map[string]any) (any, error) {
			return c.text(strings.Join(c.w.allNotes(), "\n")), nil
		}},
}

func init() { fixtureTools = append(fixtureTools, grantTools...) }

// grantConfig is the contract's grant: the toolsets of the surface the client may see.
type grantConfig struct {
	Toolsets []string `json:"toolsets"`
}

// checkGrant refuses a grant naming a toolset outside the surface.
func checkGrant(g *grantConfig, surface []string) error {
	if g.Toolsets == nil {
		return &PrepareError{"badConfig", "grant.toolsets must be an array of toolset names"}
	}
	for _, t := range g.Toolsets {
		if !slices.Contains(surface, t) {
			return &PrepareError{"badConfig", fmt.Sprintf("grant names %s, which is not in the tool surface", t)}
		}
	}
	return nil
}

// surface is the toolsets this session serves.
func (c *config) surface() []string {
	if len(c.Toolsets) == 0 {
		return []string{ToolsetName}
	}
	return c.Toolsets
}

func (t *tool) toolsetName() string {
	if t.toolset == "" {
		return ToolsetName
	}
	return t.toolset
}

// inSurface says the tool's toolset is served; offered says it is also granted.
func (w *Worker) inSurface(t *tool) bool { return slices.Contains(w.cfg.surface(), t.toolsetName()) }

func (w *Worker) offered(t *tool) bool {
	if !w.inSurface(t) {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.grant == nil || slices.Contains(w.grant, t.toolsetName())
}

func (w *Worker) surfaceToolCount() int {
	n := 0
	for _, t := range fixtureTools {
		if w.inSurface(t) {
			n++
		}
	}
	return n
}

// Grant is the contract's mcpGrant: answer: the session's grant becomes the one given, and
// nothing else of the session changes.
func (w *Worker) Grant(grantJSON []byte) []byte {
	var g grantConfig
	if err := json.Unmarshal(grantJSON, &g); err != nil {
		return marshal(map[string]any{"ok": false, "error": map[string]string{"kind": "badGrant", "message": "the grant is not a JSON object {\"toolsets\": [...]}"}})
	}
	if err := checkGrant(&g, w.cfg.surface()); err != nil {
		return marshal(map[string]any{"ok": false, "error": map[string]string{"kind": "badGrant", "message": err.(*PrepareError).Message}})
	}
	w.mu.Lock()
	w.grant = slices.Clone(g.Toolsets)
	w.mu.Unlock()
	return marshal(map[string]any{"ok": true, "grant": g})
}

func (w *Worker) grantAnswer() *grantConfig {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.grant == nil {
		return nil
	}
	return &grantConfig{Toolsets: slices.Clone(w.grant)}
}

func (w *Worker) addNote(s string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.notes = append(w.notes, s)
	return len(w.notes)
}

func (w *Worker) allNotes() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.notes)
}

// notGranted is the answer to a call of a tool outside the grant.
func notGranted(id json.RawMessage, t *tool) []byte {
	return errorReply(id, CodeNotGranted,
		"the tool "+t.name+" is not granted to this session (its toolset "+t.toolsetName()+" is outside the token's scopes)",
		map[string]string{"kind": NotGrantedKind, "tool": t.name, "toolset": t.toolsetName()})
}

// toolsOf is every tool of one toolset.
func toolsOf(toolset string) []*tool {
	var out []*tool
	for _, t := range fixtureTools {
		if t.toolsetName() == toolset {
			out = append(out, t)
		}
	}
	return out
}
