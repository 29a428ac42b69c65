package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// echoCaller sends one load worker's calls and reads their answers. It does what Client.Post
// and Answer.Decode do for a call, with the same headers, but decodes each answer once, into
// exactly the members the check reads, and keeps its read buffers between calls: the load
// generator shares the machine with the server it measures, so what it spends per call is taken
// from that server (benchmark 5 compares a server with another that costs five times as much
// per call, and the generator's own cost weighs on the cheaper side's rate).
type echoCaller struct {
	c    *Client
	body bytes.Buffer  // an application/json answer
	br   *bufio.Reader // an event-stream answer, reset onto each response
	line bytes.Buffer  // the event's data lines
}

// echoAnswer is the one decoding of an answer: enough to tell a response from a notification
// on an event stream, and everything the load generator checks.
type echoAnswer struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result *struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call posts body and answers the HTTP status, the JSON-RPC response (decoded), and the
// message as sent (for a report). An error is the request's, the read's, or an answer that
// holds no JSON-RPC response.
func (e *echoCaller) call(ctx context.Context, sid string, body []byte, headers ...string) (int, echoAnswer, []byte, error) {
	req, err := e.c.Request(ctx, http.MethodPost, sid, body, headers...)
	if err != nil {
		return 0, echoAnswer{}, nil, err
	}
	resp, err := e.c.HTTP.Do(req)
	if err != nil {
		return 0, echoAnswer{}, nil, err
	}
	defer resp.Body.Close()
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		a, msg, err := e.readEvents(resp.Body)
		return resp.StatusCode, a, msg, err
	}
	e.body.Reset()
	if _, err := e.body.ReadFrom(resp.Body); err != nil {
		return resp.StatusCode, echoAnswer{}, e.body.Bytes(), err
	}
	var a echoAnswer
	if err := json.Unmarshal(e.body.Bytes(), &a); err != nil {
		return resp.StatusCode, a, e.body.Bytes(), fmt.Errorf("answer is not JSON: %w", err)
	}
	return resp.StatusCode, a, e.body.Bytes(), nil
}

// readEvents reads an event stream up to the first event that carries a JSON-RPC response
// (an id, a result or an error, no method), skipping notifications and comments, as
// Client.Post does; each event is decoded once.
func (e *echoCaller) readEvents(r io.Reader) (echoAnswer, []byte, error) {
	if e.br == nil {
		e.br = bufio.NewReaderSize(r, 16<<10)
	} else {
		e.br.Reset(r)
	}
	e.line.Reset()
	for {
		line, err := e.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return echoAnswer{}, nil, errors.New("an event-stream line longer than 16 KiB")
		}
		trimmed := bytes.TrimRight(line, "\r\n")
		switch {
		case bytes.HasPrefix(trimmed, []byte("data:")):
			e.line.Write(bytes.TrimPrefix(bytes.TrimPrefix(trimmed, []byte("data:")), []byte(" ")))
		case len(trimmed) == 0 && e.line.Len() > 0:
			var a echoAnswer
			if json.Unmarshal(e.line.Bytes(), &a) == nil && a.Method == "" && a.ID != nil && (a.Result != nil || a.Error != nil) {
				return a, e.line.Bytes(), nil
			}
			e.line.Reset()
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return echoAnswer{}, nil, errors.New("event stream ended with no response")
			}
			return echoAnswer{}, nil, err
		}
	}
}
