package worker

import (
	"encoding/json"
	"fmt"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
)

// refusal is the error object of a contract answer that says {"ok":false,...}.
type refusal struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// ParsePrepareAnswer reads the answer of mcpPrepare: (docs/worker-contract.md), the prepare
// result or {"ok":false,"error":{kind,message}}; a refusal is a Failure of kind PrepareRefused.
func ParsePrepareAnswer(answer []byte) (PrepareResult, error) {
	var reply struct {
		OK    bool     `json:"ok"`
		Error *refusal `json:"error"`
		PrepareResult
	}
	if err := json.Unmarshal(answer, &reply); err != nil {
		return PrepareResult{}, fmt.Errorf("the worker's prepare answer is not JSON: %w", err)
	}
	if !reply.OK {
		if reply.Error == nil {
			return PrepareResult{}, Refused(errkind.BadConfig, "the worker refused the configuration without saying why")
		}
		return PrepareResult{}, Refused(reply.Error.Kind, reply.Error.Message)
	}
	return reply.PrepareResult, nil
}

// GrantError is the worker's refusal of a grant (docs/worker-contract.md, "mcpGrant:").
type GrantError struct {
	Kind    string
	Message string
}

func (e *GrantError) Error() string {
	return fmt.Sprintf("the worker refused the grant (%s): %s", e.Kind, e.Message)
}

// ParseGrantAnswer reads the answer of mcpGrant:, {"ok":true,"grant":{"toolsets":[...]}} or
// {"ok":false,"error":{kind,message}}; a refusal is a *GrantError.
func ParseGrantAnswer(answer []byte) (Grant, error) {
	var reply struct {
		OK    bool     `json:"ok"`
		Grant *Grant   `json:"grant"`
		Error *refusal `json:"error"`
	}
	if err := json.Unmarshal(answer, &reply); err != nil {
		return Grant{}, fmt.Errorf("the worker's mcpGrant: answer is not JSON: %w", err)
	}
	switch {
	case !reply.OK && reply.Error != nil:
		return Grant{}, &GrantError{Kind: reply.Error.Kind, Message: reply.Error.Message}
	case !reply.OK || reply.Grant == nil:
		return Grant{}, &GrantError{Kind: errkind.BadGrant, Message: "the worker answered no grant"}
	}
	return *reply.Grant, nil
}
