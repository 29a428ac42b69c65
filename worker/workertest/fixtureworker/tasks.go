package fixtureworker

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// The tasks-extension fixtures (io.modelcontextprotocol/tasks). The router owns tasks; a tool
// that should run as one says so during the call with the becomeTask notification through the
// channel, and the router answers the client's request with a CreateTaskResult while the tool
// goes on. A tool that can only run as a task refuses a client without the extension itself.

const (
	extTasks         = "io.modelcontextprotocol/tasks"
	becomeTaskMethod = "notifications/io.github.gemstone-mcp/becomeTask"
)

// becomeTask asks the router to answer this call's request with a task now.
func (c *call) becomeTask() { c.w.notify(c.id, becomeTaskMethod, map[string]any{}) }

// declaresTasks says the request's client declared the tasks extension.
func (c *call) declaresTasks() bool {
	var caps struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	_ = json.Unmarshal(c.meta.clientCapabilities, &caps)
	_, ok := caps.Extensions[extTasks]
	return ok
}

// needsTasks refuses a client that cannot take a task (-32021, naming the extension).
func (c *call) needsTasks() error {
	if c.declaresTasks() {
		return nil
	}
	return &replyError{code: codeMissingCapability, message: "Missing required client capability: this tool runs only as a task (" + extTasks + ")",
		data: map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{extTasks: map[string]any{}}}}}
}

func numberArg(a map[string]any, name string) float64 {
	f, _ := a[name].(float64)
	return f
}

func init() {
	fixtureTools = append(fixtureTools, taskTools...)
}

var taskTools = []*tool{
	{name: "greet", doc: "Tasks fixture: sync only; answers Hello, name!",
		schema: stringArgSchema("name", "who to greet"),
		run: func(c *call, a map[string]any) (any, error) {
			name, _ := a["name"].(string)
			return content(textItem("Hello, " + name + "!")), nil
		}},
	{name: "slow_compute", doc: "Tasks fixture: continues as a task, sleeps seconds (a break ends it), then answers.",
		schema: json.RawMessage(`{"type":"object","properties":{"seconds":{"type":"number","minimum":0,"maximum":600},"label":{"type":"string"}},"additionalProperties":false}`),
		run: func(c *call, a map[string]any) (any, error) {
			c.becomeTask()
			secs := numberArg(a, "seconds")
			if err := c.pause(time.Duration(secs * float64(time.Second))); err != nil {
				return nil, err
			}
			label, _ := a["label"].(string)
			return content(textItem(fmt.Sprintf("computed %s after %gs", label, secs))), nil
		}},
	{name: "big_task", doc: "Tasks fixture: continues as a task and answers a text of exactly n ASCII bytes (the task table's result bounds).",
		args: []argSpec{{name: "n", kind: argInteger, required: true, min: 0, max: maxBigN, doc: "length in bytes"}},
		run: func(c *call, a map[string]any) (any, error) {
			c.becomeTask()
			return c.text(bigText(a["n"].(int64))), nil
		}},
	{name: "failing_job", doc: "Tasks fixture: runs only as a task; after a second answers a tool error.",
		schema: json.RawMessage(emptySchema),
		run: func(c *call, _ map[string]any) (any, error) {
			if err := c.needsTasks(); err != nil {
				return nil, err
			}
			c.becomeTask()
			if err := c.pause(time.Second); err != nil {
				return nil, err
			}
			return toolError("fixtureError", "failing_job failed, as it always does"), nil
		}},
	{name: "protocol_error_job", doc: "Tasks fixture: continues as a task; after a second answers a JSON-RPC error.",
		schema: json.RawMessage(emptySchema),
		run: func(c *call, _ map[string]any) (any, error) {
			c.becomeTask()
			if err := c.pause(time.Second); err != nil {
				return nil, err
			}
			return nil, &replyError{code: -32603, message: "protocol_error_job: an internal failure, as it always has"}
		}},
	{name: "confirm_delete", doc: "Tasks fixture: continues as a task and asks confirm (elicitation) before answering.",
		schema: stringArgSchema("filename", "the file to delete"),
		run: func(c *call, a map[string]any) (any, error) {
			c.becomeTask()
			name, _ := a["filename"].(string)
			res, err := c.askKeyed("confirm", "elicitation/create", elicitParams("Delete "+name+"?", "confirm", "boolean"))
			if err != nil {
				return askFailure(err)
			}
			return content(textItem("confirm_delete " + name + ": " + string(res))), nil
		}},
	{name: "multi_input", doc: "Tasks fixture: continues as a task and asks two elicitations at once.",
		schema: json.RawMessage(emptySchema),
		run: func(c *call, _ map[string]any) (any, error) {
			c.becomeTask()
			keys := []string{"first", "second"}
			errs := make([]error, len(keys))
			var wg sync.WaitGroup
			for i, k := range keys {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = c.askKeyed(k, "elicitation/create", elicitParams("Input "+k+"?", "name", "string"))
				}()
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					return askFailure(err)
				}
			}
			return content(textItem("both inputs answered")), nil
		}},
	{name: "test_tool_with_task", doc: "Tasks fixture: runs only as a task; asks user_name first (input_required), then continues as a task.",
		schema: json.RawMessage(emptySchema),
		run: func(c *call, _ map[string]any) (any, error) {
			if err := c.needsTasks(); err != nil {
				return nil, err
			}
			res, err := c.askKeyed("user_name", "elicitation/create", elicitParams("What is your name?", "name", "string"))
			if err != nil {
				return askFailure(err)
			}
			c.becomeTask()
			if err := c.pause(300 * time.Millisecond); err != nil {
				return nil, err
			}
			return content(textItem("Hello, " + elicitedString(res, "name") + "! (finished as a task)")), nil
		}},
}
