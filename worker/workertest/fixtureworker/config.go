package fixtureworker

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// ContractVersion is the version of docs/worker-contract.md this worker speaks.
const ContractVersion = 1

// ToolsetName is the one toolset the fixture worker has; a config may name it or nothing.
const ToolsetName = "McpFixtureToolset"

// Identity defaults. Everything a client can see says this is a test stand-in.
const (
	DefaultServerName    = "gci-standin-fixture-worker"
	DefaultServerVersion = "0.1.0-standin"
	DefaultInstructions  = "This server is the GCI TEST STAND-IN's fixture worker, not GemStone. " +
		"Its tools (echo, sleep, fail, big, unicode, die, ...) are test fixtures for the Go front end."
)

// PrepareError is a failed prepare, with one of the contract's kinds: contractVersion,
// workerClassNotFound, toolsetNotFound, badOption, badConfig.
type PrepareError struct {
	Kind    string
	Message string
}

func (e *PrepareError) Error() string { return "fixture worker prepare: " + e.Kind + ": " + e.Message }

// config is the part of the contract's prepare config the fixture worker reads.
type config struct {
	Contract         *int                                  `json:"contract"`
	WorkerClass      string                                `json:"workerClass"`
	Toolsets         []string                              `json:"toolsets"`
	ToolsetOptions   map[string]map[string]json.RawMessage `json:"toolsetOptions"`
	ServerName       *string                               `json:"serverName"`
	ServerVersion    *string                               `json:"serverVersion"`
	ServerTitle      *string                               `json:"serverTitle"`
	Instructions     *string                               `json:"instructions"`
	ProtocolVersions []string                              `json:"protocolVersions"`
	CacheName        string                                `json:"cacheName"`
	ResultCap        int                                   `json:"resultCap"`
	Channel          *channelConfig                        `json:"channel"`
	Grant            *grantConfig                          `json:"grant"`
}

const maxInstructions = 32768

func parseConfig(configJSON []byte) (*config, error) {
	var c config
	dec := json.NewDecoder(bytes.NewReader(configJSON))
	dec.UseNumber()
	if err := dec.Decode(&c); err != nil {
		return nil, &PrepareError{"badConfig", fmt.Sprintf("the prepare config is not a JSON object of the contract's fields: %v", err)}
	}
	switch {
	case c.Contract == nil:
		return nil, &PrepareError{"contractVersion", "the prepare config has no contract version"}
	case *c.Contract != ContractVersion:
		return nil, &PrepareError{"contractVersion", fmt.Sprintf("this worker speaks contract version %d, not %d", ContractVersion, *c.Contract)}
	case c.WorkerClass == "":
		return nil, &PrepareError{"badConfig", "workerClass is missing"}
	case len(c.ProtocolVersions) == 0:
		return nil, &PrepareError{"badConfig", "protocolVersions is missing or empty"}
	case c.Instructions != nil && len([]rune(*c.Instructions)) > maxInstructions:
		return nil, &PrepareError{"badConfig", fmt.Sprintf("instructions exceed %d characters", maxInstructions)}
	}
	for _, v := range c.ProtocolVersions {
		if v == "" {
			return nil, &PrepareError{"badConfig", "protocolVersions holds an empty version"}
		}
	}
	for _, t := range c.Toolsets {
		if !slices.Contains(toolsetNames, t) {
			return nil, &PrepareError{"toolsetNotFound", fmt.Sprintf("no toolset named %s in the test stand-in (it has %s)", t, strings.Join(toolsetNames, ", "))}
		}
	}
	if c.Grant != nil {
		if err := checkGrant(c.Grant, c.surface()); err != nil {
			return nil, err
		}
	}
	for t := range c.ToolsetOptions {
		if t != ToolsetName {
			return nil, &PrepareError{"toolsetNotFound", fmt.Sprintf("options given for %s, which is not a toolset of the test stand-in", t)}
		}
	}
	return &c, nil
}

// startingCommitsBehind reads the toolset's one option.
func (c *config) startingCommitsBehind() (int, error) {
	opts := c.ToolsetOptions[ToolsetName]
	behind := 0
	for name, raw := range opts {
		if name != "commitsBehind" {
			return 0, &PrepareError{"badOption", fmt.Sprintf("%s has no option %s (it has commitsBehind)", ToolsetName, name)}
		}
		if err := json.Unmarshal(raw, &behind); err != nil || behind < -1 {
			return 0, &PrepareError{"badOption", "commitsBehind must be an integer of at least -1"}
		}
	}
	return behind, nil
}

// PrepareFailure renders a failed New as the contract's prepare answer. Errors that are not
// a *PrepareError are reported as badConfig.
func PrepareFailure(err error) []byte {
	pe, ok := err.(*PrepareError)
	if !ok {
		pe = &PrepareError{"badConfig", err.Error()}
	}
	out, _ := json.Marshal(map[string]any{
		"ok":    false,
		"error": map[string]string{"kind": pe.Kind, "message": pe.Message},
	})
	return out
}
