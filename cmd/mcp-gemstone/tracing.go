package main

// OpenTelemetry tracing is set up from the standard OTEL_* variables: off unless they ask for
// the OTLP exporter, which then sends over OTLP/HTTP (protobuf). The SDK reads the rest of its
// settings itself (OTEL_EXPORTER_OTLP_*, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
// OTEL_TRACES_SAMPLER, OTEL_BSP_*).

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"
)

// serviceName names this program in traces when OTEL_SERVICE_NAME does not.
const serviceName = "mcp-gemstone"

// Tracing is the set-up outcome: a Tracer, nil when tracing is off, and how to flush it.
type Tracing struct {
	Tracer   trace.Tracer
	Endpoint string // where spans go, for the startup log ("" when off)
	provider *sdktrace.TracerProvider
}

// Enabled says spans are recorded and exported.
func (t *Tracing) Enabled() bool { return t != nil && t.Tracer != nil }

// Shutdown flushes the spans not yet sent and stops the exporter.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil || t.provider == nil {
		return nil
	}
	return t.provider.Shutdown(ctx)
}

// tracingWanted says whether the environment asks for tracing, and refuses what this build cannot do.
// OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn it off; OTEL_TRACES_EXPORTER=otlp, or an
// OTLP endpoint with no exporter named, turn it on.
func tracingWanted(getenv func(string) string) (bool, error) {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return false, nil
	}
	on := false
	switch exp := strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")); exp {
	case "none":
		return false, nil
	case "otlp":
		on = true
	case "":
		on = getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
	default:
		return false, fmt.Errorf("OTEL_TRACES_EXPORTER=%q: this server exports traces with otlp only (or none)", exp)
	}
	if !on {
		return false, nil
	}
	for _, name := range []string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if p := strings.TrimSpace(getenv(name)); p != "" {
			if p != "http/protobuf" {
				return false, fmt.Errorf("%s=%q: this server sends OTLP over http/protobuf only (a collector's port 4318)", name, p)
			}
			break
		}
	}
	return true, nil
}

// tracingFromEnv sets tracing up as the environment asks, with the OTLP/HTTP exporter; version is
// service.version. It answers a Tracing whose Tracer is nil when tracing is off.
func tracingFromEnv(ctx context.Context, getenv func(string) string, version string) (*Tracing, error) {
	on, err := tracingWanted(getenv)
	if err != nil || !on {
		return &Tracing{}, err
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("OTLP trace exporter: %w", err)
	}
	t, err := tracingWithExporter(exp, version)
	if err != nil {
		return nil, err
	}
	t.Endpoint = otlpEndpointOf(getenv)
	return t, nil
}

// tracingWithExporter traces to exp through a batching provider; tests pass an in-process exporter.
func tracingWithExporter(exp sdktrace.SpanExporter, version string) (*Tracing, error) {
	if exp == nil {
		return nil, errors.New("tracing: no exporter")
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(
		semconv.ServiceName(serviceName), semconv.ServiceVersion(version)))
	if err != nil {
		return nil, fmt.Errorf("tracing resource: %w", err)
	}
	// The environment (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) wins over the defaults.
	if env, err := resource.New(context.Background(), resource.WithFromEnv()); err == nil {
		if merged, err := resource.Merge(res, env); err == nil {
			res = merged
		}
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return &Tracing{Tracer: tp.Tracer("github.com/gemstone-mcp/mcp-gemstone/router"), provider: tp}, nil
}

func otlpEndpointOf(getenv func(string) string) string {
	for _, name := range []string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"} {
		if v := getenv(name); v != "" {
			return v
		}
	}
	return "http://localhost:4318 (the OTLP default)"
}
