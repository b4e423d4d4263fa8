// Package kubernetes holds no code: its tests prove the manifests in this
// folder are what the Kubernetes API accepts. It is a module of its own so
// that the server's module does not depend on k8s.io.
package kubernetes

import (
	"bytes"
	"os"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

func TestManifestsParseStrictly(t *testing.T) {
	var (
		dep    appsv1.Deployment
		svc    corev1.Service
		secret corev1.Secret
	)
	for file, into := range map[string]any{"deployment.yaml": &dep, "service.yaml": &svc, "secret.yaml": &secret} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.UnmarshalStrict(b, into); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		// Strict means strict: a misspelt field is an error, not ignored.
		if file == "deployment.yaml" {
			typo := bytes.Replace(b, []byte("  replicas: 3"), []byte("  replicaz: 3"), 1)
			if err := yaml.UnmarshalStrict(typo, &appsv1.Deployment{}); err == nil {
				t.Error("a misspelt field parsed without error: the check is not strict")
			}
		}
	}

	if dep.Kind != "Deployment" || svc.Kind != "Service" || secret.Kind != "Secret" {
		t.Fatalf("kinds %s %s %s", dep.Kind, svc.Kind, secret.Kind)
	}
	if dep.Spec.Replicas == nil || *dep.Spec.Replicas != 3 {
		t.Errorf("replicas %v, want 3", dep.Spec.Replicas)
	}
	pod := dep.Spec.Template.Spec
	if psc := pod.SecurityContext; psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser == 0 {
		t.Errorf("pod security context %+v: must run as non-root", psc)
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers", len(pod.Containers))
	}
	c := pod.Containers[0]
	if sc := c.SecurityContext; sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
		sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		t.Errorf("container security context %+v: read-only root filesystem, no privilege escalation", sc)
	}
	for name, p := range map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
		if p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/healthz" || p.HTTPGet.Port.String() != c.Ports[0].Name {
			t.Errorf("%s probe %+v: want GET /healthz on the container's port", name, p)
		}
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() || c.Resources.Limits.Cpu().IsZero() {
		t.Errorf("resources %+v: requests and limits for cpu and memory", c.Resources)
	}
	if c.Ports[0].ContainerPort != 8080 || !contains(c.Args, "--addr=0.0.0.0:8080") || !contains(c.Args, "--transport=http") {
		t.Errorf("port %d, args %v", c.Ports[0].ContainerPort, c.Args)
	}
	// Every secret the pod reads exists in the Secret; the state key is one.
	refs := map[string]bool{}
	for _, e := range c.Env {
		if r := e.ValueFrom; r != nil && r.SecretKeyRef != nil {
			if r.SecretKeyRef.Name != secret.Name {
				t.Errorf("env %s reads secret %s, not %s", e.Name, r.SecretKeyRef.Name, secret.Name)
			}
			if _, ok := secret.StringData[r.SecretKeyRef.Key]; !ok {
				t.Errorf("env %s reads key %s, which the Secret does not hold", e.Name, r.SecretKeyRef.Key)
			}
			refs[e.Name] = true
		}
	}
	if !refs["FLIGHTSERVER_STATE_KEY"] || !refs["FLIGHTSERVER_AUTH_TOKEN"] {
		t.Errorf("the pod must read the state key and the auth token from the Secret: %v", refs)
	}
	if pod.TerminationGracePeriodSeconds == nil || *pod.TerminationGracePeriodSeconds <= 25 {
		t.Error("terminationGracePeriodSeconds must exceed the server's 25 s shutdown grace")
	}
	// The Service reaches these pods on their named port.
	for k, v := range svc.Spec.Selector {
		if dep.Spec.Template.Labels[k] != v {
			t.Errorf("service selector %s=%s does not match the pod labels %v", k, v, dep.Spec.Template.Labels)
		}
	}
	if len(svc.Spec.Selector) == 0 || svc.Spec.Ports[0].TargetPort.String() != c.Ports[0].Name {
		t.Errorf("service %+v", svc.Spec)
	}
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}
