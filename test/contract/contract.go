// Package contract holds the protocol fixtures every worker must satisfy (cases/*.json) and
// the rule that matches a worker's response against one. The fixtures are protocol-only:
// they name no worker's tools except through placeholders a runner fills per worker, so the
// stand-in's fixture worker and the Smalltalk McpServer answer the same files. README.md
// documents the file format, the matching rule and the placeholders.
package contract

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// Placeholders is what a runner substitutes for ${NAME} in prepare.json and in requests.
type Placeholders map[string]string

// Case is one fixture: a request and the response it must get.
type Case struct {
	Name        string
	Description string
	request     []byte
	response    any // the pattern; nil when NoResponse
	NoResponse  bool
}

type caseFile struct {
	Description   string          `json:"description"`
	Request       json.RawMessage `json:"request"`
	RequestText   *string         `json:"requestText"`
	RequestBase64 *string         `json:"requestBase64"`
	Response      json.RawMessage `json:"response"`
	NoResponse    bool            `json:"noResponse"`
}

// Load reads every case in dir (cases/*.json), sorted by name.
func Load(dir string) ([]Case, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no contract cases in %s", dir)
	}
	sort.Strings(paths)
	var cases []Case
	for _, p := range paths {
		c, err := loadCase(p)
		if err != nil {
			return nil, fmt.Errorf("contract case %s: %w", p, err)
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// Scenarios runs each scenario folder under root/realstone (one per toolset, in name order) as a
// subtest of t named after it, with the cases the folder holds.
func Scenarios(t *testing.T, root string, run func(t *testing.T, cases []Case)) {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(root, "realstone", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cases, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			run(t, cases)
		})
	}
}

func loadCase(path string) (Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Case{}, err
	}
	var f caseFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Case{}, err
	}
	c := Case{Name: strings.TrimSuffix(filepath.Base(path), ".json"), Description: f.Description, NoResponse: f.NoResponse}
	switch {
	case f.Request != nil && f.RequestText == nil && f.RequestBase64 == nil:
		c.request = f.Request
	case f.Request == nil && f.RequestText != nil && f.RequestBase64 == nil:
		c.request = []byte(*f.RequestText)
	case f.Request == nil && f.RequestText == nil && f.RequestBase64 != nil:
		if c.request, err = base64.StdEncoding.DecodeString(*f.RequestBase64); err != nil {
			return Case{}, fmt.Errorf("requestBase64: %w", err)
		}
	default:
		return Case{}, errors.New("exactly one of request, requestText, requestBase64 is needed")
	}
	if f.NoResponse == (f.Response != nil) {
		return Case{}, errors.New("exactly one of response and noResponse is needed")
	}
	if f.Response != nil {
		if err := json.Unmarshal(f.Response, &c.response); err != nil {
			return Case{}, fmt.Errorf("response: %w", err)
		}
	}
	if f.Description == "" {
		return Case{}, errors.New("a case needs a description")
	}
	return c, nil
}

// Request is the case's request bytes with the placeholders filled.
func (c Case) Request(p Placeholders) []byte { return Fill(c.request, p) }

// Fill replaces every ${NAME} of p in data. Values are inserted as they are, so inside a JSON
// string they must need no escaping (tool and argument names do not).
func Fill(data []byte, p Placeholders) []byte {
	out := data
	for name, value := range p {
		out = bytes.ReplaceAll(out, []byte("${"+name+"}"), []byte(value))
	}
	return out
}

// Check answers nil when response (nil or empty meaning none was sent) is what the case
// expects, else an error naming the first difference by its JSON path.
func (c Case) Check(response []byte) error {
	if c.NoResponse {
		if len(bytes.TrimSpace(response)) != 0 {
			return fmt.Errorf("want no response, got %s", clip(response))
		}
		return nil
	}
	if len(bytes.TrimSpace(response)) == 0 {
		return errors.New("want a response, got none")
	}
	var actual any
	dec := json.NewDecoder(bytes.NewReader(response))
	dec.UseNumber()
	if err := dec.Decode(&actual); err != nil {
		return fmt.Errorf("the response is not JSON (%v): %s", err, clip(response))
	}
	if err := Match(c.response, actual, "$"); err != nil {
		return fmt.Errorf("%w\nresponse: %s", err, clip(response))
	}
	return nil
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "..."
	}
	return string(b)
}

// Match compares a pattern with a decoded JSON value (numbers as json.Number), per README.md:
// literals must be equal, "$type" strings match by JSON type, an object pattern lists the
// members that must be there (others may be too), "$absent" says a member must not be there,
// {"$each": p, "$minItems": n} matches an array, {"$exact": v} matches v exactly.
func Match(pattern, actual any, path string) error {
	switch p := pattern.(type) {
	case string:
		if strings.HasPrefix(p, "$") {
			return matchType(p, actual, path)
		}
		if s, ok := actual.(string); !ok || s != p {
			return fmt.Errorf("%s: want %q, got %s", path, p, show(actual))
		}
		return nil
	case float64:
		n, ok := actual.(json.Number)
		if !ok {
			return fmt.Errorf("%s: want the number %v, got %s", path, p, show(actual))
		}
		if f, err := n.Float64(); err != nil || f != p {
			return fmt.Errorf("%s: want %v, got %s", path, p, n)
		}
		return nil
	case nil, bool:
		if !reflect.DeepEqual(p, actual) {
			return fmt.Errorf("%s: want %v, got %s", path, p, show(actual))
		}
		return nil
	case []any:
		a, ok := actual.([]any)
		if !ok || len(a) != len(p) {
			return fmt.Errorf("%s: want an array of %d, got %s", path, len(p), show(actual))
		}
		for i := range p {
			if err := Match(p[i], a[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case map[string]any:
		return matchObject(p, actual, path)
	}
	return fmt.Errorf("%s: the pattern holds an unsupported %T", path, pattern)
}

func matchObject(p map[string]any, actual any, path string) error {
	if exact, ok := p["$exact"]; ok {
		if !reflect.DeepEqual(normalise(exact), normalise(actual)) {
			return fmt.Errorf("%s: want exactly %s, got %s", path, show(exact), show(actual))
		}
		return nil
	}
	if each, ok := p["$each"]; ok {
		a, isArray := actual.([]any)
		if !isArray {
			return fmt.Errorf("%s: want an array, got %s", path, show(actual))
		}
		if minItems, ok := p["$minItems"].(float64); ok && float64(len(a)) < minItems {
			return fmt.Errorf("%s: want at least %v items, got %d", path, minItems, len(a))
		}
		for i := range a {
			if err := Match(each, a[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	}
	obj, ok := actual.(map[string]any)
	if !ok {
		return fmt.Errorf("%s: want an object, got %s", path, show(actual))
	}
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, present := obj[k]
		if p[k] == "$absent" {
			if present {
				return fmt.Errorf("%s.%s: want no such member, got %s", path, k, show(v))
			}
			continue
		}
		if !present {
			return fmt.Errorf("%s.%s: missing", path, k)
		}
		if err := Match(p[k], v, path+"."+k); err != nil {
			return err
		}
	}
	return nil
}

func matchType(want string, actual any, path string) error {
	ok := false
	switch want {
	case "$any":
		ok = true
	case "$string":
		_, ok = actual.(string)
	case "$nonEmptyString":
		s, isString := actual.(string)
		ok = isString && s != ""
	case "$number":
		_, ok = actual.(json.Number)
	case "$integer":
		n, isNumber := actual.(json.Number)
		_, err := n.Int64()
		ok = isNumber && err == nil
	case "$boolean":
		_, ok = actual.(bool)
	case "$object":
		_, ok = actual.(map[string]any)
	case "$array":
		_, ok = actual.([]any)
	case "$absent":
		return fmt.Errorf("%s: \"$absent\" is only meaningful as an object member's pattern", path)
	default:
		return fmt.Errorf("%s: unknown pattern %q", path, want)
	}
	if !ok {
		return fmt.Errorf("%s: want %s, got %s", path, strings.TrimPrefix(want, "$"), show(actual))
	}
	return nil
}

// normalise turns json.Number and float64 alike into float64 so $exact compares values.
func normalise(v any) any {
	switch t := v.(type) {
	case json.Number:
		f, _ := t.Float64()
		return f
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = normalise(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = normalise(e)
		}
		return out
	}
	return v
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return clip(b)
}
