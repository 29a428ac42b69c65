package lifetime

import (
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestFromEnvUnsetGivesTheDocumentedDefaults(t *testing.T) {
	c, err := FromEnv(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := Defaults()
	if c != want {
		t.Fatalf("got %+v\nwant %+v", c, want)
	}
	if c.IdleTimeout.D() != 30*time.Minute || c.StreamlessIdleTimeout.D() != time.Minute ||
		c.StreamLossGrace.D() != 10*time.Second || c.MaxLifetime.On() || c.MaxCommitsBehind != 20 {
		t.Fatalf("defaults drifted from the docs: %s", c.Describe())
	}
}

func TestFromEnvReadsEveryFormOfValue(t *testing.T) {
	c, err := FromEnv(env(map[string]string{
		EnvIdleTimeout:           "3600",
		EnvStreamlessIdleTimeout: "2m",
		EnvStreamLossGrace:       "0",
		EnvMaxLifetime:           "8h",
		EnvProbeInterval:         "5m",
		EnvReaperInterval:        "10s",
		EnvMaxCommitsBehind:      "none",
		EnvStuckViewGrace:        "none",
		EnvPinnedViewGrace:       "NONE",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.IdleTimeout != After(time.Hour) || c.StreamlessIdleTimeout != After(2*time.Minute) ||
		c.StreamLossGrace != After(0) || c.MaxLifetime != After(8*time.Hour) || c.ProbeInterval != After(5*time.Minute) ||
		c.PassInterval != 10*time.Second || c.MaxCommitsBehind != 0 || c.StuckViewGrace.On() || c.PinnedViewGrace.On() {
		t.Fatalf("parsed %s", c.Describe())
	}
}

func TestFromEnvRefusesAProbeIntervalNotShorterThanTheIdleTimeoutNamingBoth(t *testing.T) {
	_, err := FromEnv(env(map[string]string{EnvIdleTimeout: "5m", EnvProbeInterval: "10m"}))
	if err == nil {
		t.Fatal("accepted a probe interval longer than the idle timeout")
	}
	for _, want := range []string{"MCP_PROBE_INTERVAL=10m0s", "MCP_IDLE_TIMEOUT=5m0s"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
}

func TestFromEnvRefusesUnworkableCombinations(t *testing.T) {
	cases := []struct {
		name  string
		env   map[string]string
		names []string
	}{
		{"no deadline and no probes", map[string]string{EnvIdleTimeout: "none", EnvProbeInterval: "none"},
			[]string{EnvIdleTimeout, EnvProbeInterval}},
		{"streamless longer than idle", map[string]string{EnvIdleTimeout: "5m", EnvStreamlessIdleTimeout: "10m", EnvProbeInterval: "1m"},
			[]string{EnvStreamlessIdleTimeout, EnvIdleTimeout}},
		{"probe faster than the pass", map[string]string{EnvProbeInterval: "5s", EnvReaperInterval: "15s"},
			[]string{EnvProbeInterval, EnvReaperInterval}},
		{"stuck grace shorter than a pass", map[string]string{EnvStuckViewGrace: "5s"},
			[]string{EnvStuckViewGrace, EnvReaperInterval}},
		{"pinned grace zero", map[string]string{EnvPinnedViewGrace: "0"}, []string{EnvPinnedViewGrace}},
		{"idle zero", map[string]string{EnvIdleTimeout: "0"}, []string{EnvIdleTimeout}},
		{"pass off", map[string]string{EnvReaperInterval: "none"}, []string{EnvReaperInterval}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromEnv(env(tc.env))
			if err == nil {
				t.Fatalf("accepted %v", tc.env)
			}
			for _, n := range tc.names {
				if !strings.Contains(err.Error(), n) {
					t.Fatalf("error %q does not name %s", err, n)
				}
			}
		})
	}
}

func TestFromEnvRefusesMalformedValuesNamingTheVariable(t *testing.T) {
	for name, raw := range map[string]string{
		EnvIdleTimeout:      "thirty minutes",
		EnvStreamLossGrace:  "-5",
		EnvMaxLifetime:      "-1h",
		EnvMaxCommitsBehind: "0",
	} {
		_, err := FromEnv(env(map[string]string{name: raw}))
		if err == nil {
			t.Errorf("%s=%q accepted", name, raw)
			continue
		}
		if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), raw) {
			t.Errorf("error %q does not name %s and %q", err, name, raw)
		}
	}
}

func TestStuckViewGraceZeroIsAValidSetting(t *testing.T) {
	c, err := FromEnv(env(map[string]string{EnvStuckViewGrace: "0"}))
	if err != nil {
		t.Fatal(err)
	}
	if !c.StuckViewGrace.On() || c.StuckViewGrace.D() != 0 {
		t.Fatalf("stuck grace %v, want on at 0", c.StuckViewGrace)
	}
}

func TestShortIdleTimeoutWithoutAProbeIntervalGetsProbesThatFit(t *testing.T) {
	c, err := FromEnv(env(map[string]string{EnvIdleTimeout: "90", EnvStreamlessIdleTimeout: "60"}))
	if err != nil {
		t.Fatal(err)
	}
	if !c.ProbeInterval.On() || c.ProbeInterval.D() >= c.IdleTimeout.D() {
		t.Fatalf("probe interval %v with idle timeout %v", c.ProbeInterval, c.IdleTimeout)
	}
}

func TestNewRefusesAnInvalidConfig(t *testing.T) {
	c := Defaults()
	c.ProbeInterval = After(time.Hour)
	if _, err := New(c, nil); err == nil {
		t.Fatal("New accepted a probe interval longer than the idle timeout")
	}
}

func TestKnobsNameEveryVariableFromEnvReadsWithItsDefault(t *testing.T) {
	read := map[string]bool{}
	if _, err := FromEnv(func(k string) string { read[k] = true; return "" }); err != nil {
		t.Fatal(err)
	}
	defaults := map[string]string{}
	for _, k := range Knobs() {
		if !read[k.Env] {
			t.Errorf("knob %s is not read by FromEnv", k.Env)
		}
		delete(read, k.Env)
		defaults[k.Env] = k.Default
		if k.Flag == "" || k.Help == "" {
			t.Errorf("knob %s lacks a flag or help", k.Env)
		}
	}
	for env := range read {
		t.Errorf("FromEnv reads %s, which no knob lists", env)
	}
	// Every documented default parses to what Defaults() holds.
	c, err := FromEnv(func(k string) string { return defaults[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c != Defaults() {
		t.Fatalf("knob defaults give %s, Defaults() is %s", c.Describe(), Defaults().Describe())
	}
}

func TestFromSettingsCallsEachKnobWhatTheLoaderSays(t *testing.T) {
	values := map[string]string{EnvIdleTimeout: "4m", EnvProbeInterval: "5m", EnvMaxLifetime: "forever"}
	byFlag := func(env string) string {
		if env == EnvIdleTimeout || env == EnvMaxLifetime {
			return "-flag-for-" + env
		}
		return env
	}
	_, err := FromSettings(func(k string) string { return values[k] }, byFlag)
	if err == nil || !strings.Contains(err.Error(), `-flag-for-MCP_MAX_LIFETIME="forever"`) {
		t.Fatalf("parse error %v, want the loader's name for the knob", err)
	}
	delete(values, EnvMaxLifetime)
	_, err = FromSettings(func(k string) string { return values[k] }, byFlag)
	if err == nil || !strings.Contains(err.Error(), "MCP_PROBE_INTERVAL=5m0s is not shorter than -flag-for-MCP_IDLE_TIMEOUT=4m0s") {
		t.Fatalf("combination error %v, want both knobs named as the loader says", err)
	}
}
