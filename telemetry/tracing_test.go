package telemetry

import "testing"

// TracingEnabled reads the standard OpenTelemetry variables as the SDKs
// do: OTEL_SDK_DISABLED=true turns everything off, whatever else is set
// (an operator opting one workload out of a cluster-wide endpoint).
func TestTracingEnabledReadsTheStandardVariables(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"}, true},
		{map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, true},
		{map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, false},
		{map[string]string{"OTEL_SDK_DISABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, false},
		{map[string]string{"OTEL_SDK_DISABLED": "TRUE", "OTEL_TRACES_EXPORTER": "otlp"}, false},
		{map[string]string{"OTEL_SDK_DISABLED": "false", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, true},
	} {
		got, why := TracingEnabled(func(k string) string { return tc.env[k] })
		if got != tc.want || (!got && why == "") {
			t.Errorf("%v: enabled %v (%q), want %v", tc.env, got, why, tc.want)
		}
	}
}
