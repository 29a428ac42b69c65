package main

import (
	"context"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func otelEnv(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestTracingIsOffUnlessTheStandardVariablesAskForOTLP(t *testing.T) {
	for _, c := range []struct {
		env  []string
		want bool
	}{
		{nil, false},
		{[]string{"OTEL_SERVICE_NAME", "x"}, false},
		{[]string{"OTEL_TRACES_EXPORTER", "otlp"}, true},
		{[]string{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"}, true},
		{[]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://collector:4318/v1/traces"}, true},
		{[]string{"OTEL_TRACES_EXPORTER", "none", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"}, false},
		{[]string{"OTEL_SDK_DISABLED", "true", "OTEL_TRACES_EXPORTER", "otlp"}, false},
		{[]string{"OTEL_TRACES_EXPORTER", "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"}, true},
	} {
		got, err := tracingWanted(otelEnv(c.env...))
		if err != nil || got != c.want {
			t.Errorf("%v: %v %v, want %v", c.env, got, err, c.want)
		}
	}
}

func TestWhatThisBuildCannotExportIsRefusedNamingTheVariable(t *testing.T) {
	for _, c := range []struct {
		env    []string
		naming string
	}{
		{[]string{"OTEL_TRACES_EXPORTER", "zipkin"}, "OTEL_TRACES_EXPORTER"},
		{[]string{"OTEL_TRACES_EXPORTER", "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"}, "OTEL_EXPORTER_OTLP_PROTOCOL"},
		{[]string{"OTEL_TRACES_EXPORTER", "otlp", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc",
			"OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"}, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"},
	} {
		_, err := tracingWanted(otelEnv(c.env...))
		if err == nil || !strings.HasPrefix(err.Error(), c.naming+"=") {
			t.Errorf("%v: %v, want a refusal naming %s", c.env, err, c.naming)
		}
		if _, err := tracingFromEnv(context.Background(), otelEnv(c.env...), "v"); err == nil {
			t.Errorf("%v: FromEnv started", c.env)
		}
	}
}

func TestTracingOffIsInert(t *testing.T) {
	tr, err := tracingFromEnv(context.Background(), otelEnv(), "v")
	t.Run("has no tracer", func(t *testing.T) {
		if err != nil || tr.Enabled() || tr.Tracer != nil {
			t.Fatalf("%+v %v", tr, err)
		}
	})
	t.Run("shuts down doing nothing", func(t *testing.T) {
		if err := tr.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
}

func TestOnBuildsAnOTLPExporterWithoutDialling(t *testing.T) {
	tr, err := tracingFromEnv(context.Background(), otelEnv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1"), "v1")
	if err != nil || !tr.Enabled() || tr.Endpoint != "http://127.0.0.1:1" {
		t.Fatalf("%+v %v", tr, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	_ = tr.Shutdown(ctx) // nothing listens there; shutting down must still return
}

// Spans carry the service name and version.
func TestSpansCarryTheServicesIdentity(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tr, err := tracingWithExporter(exp, "v1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	_, span := tr.Tracer.Start(context.Background(), "tools/call echo")
	span.End()
	if err := tr.provider.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := exp.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("%d spans", len(spans))
	}
	attrs := map[string]string{}
	for _, kv := range spans[0].Resource.Attributes() {
		attrs[string(kv.Key)] = kv.Value.String()
	}
	if attrs["service.name"] != serviceName || attrs["service.version"] != "v1.2.3" {
		t.Fatalf("resource %v", attrs)
	}
}
