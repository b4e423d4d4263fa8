// Package kubernetes holds no code: its tests prove the manifests in this
// folder build with kustomize (as `kubectl apply -k` does), decode strictly
// into the Kubernetes API types, and fit together: selectors, ports, probes,
// grace periods, secrets, the router's nginx.conf. It is a module of its own
// so that the server's module does not depend on k8s.io.
package kubernetes

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// secretsEnv is what an operator writes to secrets/flightserver.env.
const secretsEnv = "state-key=" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" + "\n" +
	"auth-token=" + "fedcba9876543210fedcba9876543210" + "\n"

// newObject is the typed object a kind decodes into.
var newObject = map[string]func() any{
	"Namespace":               func() any { return &corev1.Namespace{} },
	"Service":                 func() any { return &corev1.Service{} },
	"ConfigMap":               func() any { return &corev1.ConfigMap{} },
	"Secret":                  func() any { return &corev1.Secret{} },
	"StatefulSet":             func() any { return &appsv1.StatefulSet{} },
	"Deployment":              func() any { return &appsv1.Deployment{} },
	"Ingress":                 func() any { return &networkingv1.Ingress{} },
	"NetworkPolicy":           func() any { return &networkingv1.NetworkPolicy{} },
	"PodDisruptionBudget":     func() any { return &policyv1.PodDisruptionBudget{} },
	"HorizontalPodAutoscaler": func() any { return &autoscalingv2.HorizontalPodAutoscaler{} },
}

// decode parses one object strictly: a misspelt or misplaced field is an
// error, as the API server's strict field validation makes it.
func decode(doc []byte) (any, error) {
	var head struct{ APIVersion, Kind string }
	if err := yaml.Unmarshal(doc, &head); err != nil {
		return nil, err
	}
	mk, ok := newObject[head.Kind]
	if !ok {
		return nil, fmt.Errorf("kind %q (%s) is not one this test knows", head.Kind, head.APIVersion)
	}
	obj := mk()
	if err := yaml.UnmarshalStrict(doc, obj); err != nil {
		return nil, fmt.Errorf("%s: %w", head.Kind, err)
	}
	return obj, nil
}

// build runs kustomize over this folder as `kubectl apply -k` does, with
// secrets/flightserver.env holding env (none when empty), and decodes every
// object it produces.
func build(t *testing.T, env string) ([]any, error) {
	t.Helper()
	fs := filesys.MakeFsInMemory()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".go") || strings.HasPrefix(e.Name(), "go.") {
			continue
		}
		b, err := os.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if err := fs.WriteFile(filepath.Join("/app", e.Name()), b); err != nil {
			t.Fatal(err)
		}
	}
	if env != "" {
		if err := fs.WriteFile("/app/secrets/flightserver.env", []byte(env)); err != nil {
			t.Fatal(err)
		}
	}
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fs, "/app")
	if err != nil {
		return nil, err
	}
	var objs []any
	for _, r := range m.Resources() {
		b, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		obj, err := decode(b)
		if err != nil {
			t.Fatalf("kustomize built an object that does not decode strictly: %v\n%s", err, b)
		}
		objs = append(objs, obj)
	}
	return objs, nil
}

// manifests are the objects kustomize builds, by kind and name.
type manifests struct {
	namespace   *corev1.Namespace
	server      *appsv1.StatefulSet
	router      *appsv1.Deployment
	services    map[string]*corev1.Service
	configMap   *corev1.ConfigMap
	secret      *corev1.Secret
	ingress     *networkingv1.Ingress
	budgets     map[string]*policyv1.PodDisruptionBudget
	autoscaler  *autoscalingv2.HorizontalPodAutoscaler
	netpols     map[string]*networkingv1.NetworkPolicy
	namespaceOf map[string]string // "type name" -> namespace
}

func built(t *testing.T) *manifests {
	t.Helper()
	objs, err := build(t, secretsEnv)
	if err != nil {
		t.Fatalf("kustomize build: %v", err)
	}
	m := &manifests{services: map[string]*corev1.Service{}, budgets: map[string]*policyv1.PodDisruptionBudget{},
		netpols: map[string]*networkingv1.NetworkPolicy{}, namespaceOf: map[string]string{}}
	count := map[string]int{}
	for _, o := range objs {
		switch o := o.(type) {
		case *corev1.Namespace:
			m.namespace = o
		case *appsv1.StatefulSet:
			m.server = o
		case *appsv1.Deployment:
			m.router = o
		case *corev1.Service:
			m.services[o.Name] = o
		case *corev1.ConfigMap:
			m.configMap = o
		case *corev1.Secret:
			m.secret = o
		case *networkingv1.Ingress:
			m.ingress = o
		case *policyv1.PodDisruptionBudget:
			m.budgets[o.Name] = o
		case *autoscalingv2.HorizontalPodAutoscaler:
			m.autoscaler = o
		case *networkingv1.NetworkPolicy:
			m.netpols[o.Name] = o
		}
		count[fmt.Sprintf("%T", o)]++
		if mo, ok := o.(metav1.Object); ok {
			if _, cluster := o.(*corev1.Namespace); !cluster {
				m.namespaceOf[fmt.Sprintf("%T %s", o, mo.GetName())] = mo.GetNamespace()
			}
		}
	}
	want := map[string]int{"*v1.Namespace": 1, "*v1.StatefulSet": 1, "*v1.Deployment": 1, "*v1.Service": 3, "*v1.ConfigMap": 1,
		"*v1.Secret": 1, "*v1.Ingress": 1, "*v1.PodDisruptionBudget": 2, "*v2.HorizontalPodAutoscaler": 1, "*v1.NetworkPolicy": 2}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%d objects of %s, want %d (all: %v)", count[k], k, n, count)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return m
}

// rawDocuments are the objects in this folder's *.yaml files as written,
// what `kubectl apply -f deploy/kubernetes/` would send.
func rawDocuments(t *testing.T) map[string][][]byte {
	t.Helper()
	files, err := filepath.Glob("*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string][][]byte{}
	for _, f := range files {
		if f == "kustomization.yaml" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range regexp.MustCompile(`(?m)^---$`).Split(string(b), -1) {
			if strings.TrimSpace(regexp.MustCompile(`(?m)^#.*$`).ReplaceAllString(d, "")) != "" {
				docs[f] = append(docs[f], []byte(d))
			}
		}
	}
	return docs
}

func TestFilesDecodeStrictly(t *testing.T) {
	docs := rawDocuments(t)
	if len(docs) < 8 {
		t.Fatalf("only %d manifest files", len(docs))
	}
	for f, ds := range docs {
		for i, d := range ds {
			if _, err := decode(d); err != nil {
				t.Errorf("%s, object %d: %v", f, i+1, err)
			}
		}
	}
	// Strict means strict: a misspelt field, or one in the wrong place, is
	// an error rather than ignored.
	sts, err := os.ReadFile("statefulset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, typo := range []struct{ old, new string }{
		{"  serviceName: flightserver-pods", "  serviceNmae: flightserver-pods"},
		{"              path: /readyz", "              paht: /readyz"},
		{"      terminationGracePeriodSeconds: 40", "      terminationGracePeriodSeconds: 40s"},
	} {
		bad := bytes.Replace(sts, []byte(typo.old), []byte(typo.new), 1)
		if bytes.Equal(bad, sts) {
			t.Fatalf("statefulset.yaml has no %q to spoil", typo.old)
		}
		if _, err := decode(bad); err == nil {
			t.Errorf("%q parsed without error: the check is not strict", typo.new)
		}
	}
}

func TestSecretsAreNeverPlaceholders(t *testing.T) {
	// Without the operator's file, the build stops and says which file.
	if _, err := build(t, ""); err == nil || !strings.Contains(err.Error(), "flightserver.env") {
		t.Errorf("kustomize build without secrets/flightserver.env: %v; want an error naming the file", err)
	}
	// `kubectl apply -f` on the folder sends no Secret at all, so nothing
	// with a placeholder can reach the cluster either way.
	for f, ds := range rawDocuments(t) {
		for _, d := range ds {
			if obj, err := decode(d); err == nil {
				if _, ok := obj.(*corev1.Secret); ok {
					t.Errorf("%s holds a Secret: it would be applied as written", f)
				}
			}
		}
	}
	// The file itself stays out of git.
	ignore, err := os.ReadFile("secrets/.gitignore")
	if err != nil || !slices.Contains(strings.Split(string(ignore), "\n"), "*") {
		t.Errorf("secrets/.gitignore must ignore everything in secrets/: %q %v", ignore, err)
	}
	// With it, the Secret holds exactly what the file says.
	m := built(t)
	if string(m.secret.Data["state-key"]) != "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" ||
		string(m.secret.Data["auth-token"]) != "fedcba9876543210fedcba9876543210" {
		t.Errorf("secret data %q", m.secret.Data)
	}
}

func TestKustomizationListsEveryFile(t *testing.T) {
	var k struct{ Resources []string }
	b, err := os.ReadFile("kustomization.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &k); err != nil {
		t.Fatal(err)
	}
	var files []string
	for f := range rawDocuments(t) {
		files = append(files, f)
	}
	slices.Sort(files)
	slices.Sort(k.Resources)
	if !slices.Equal(files, k.Resources) {
		t.Errorf("kustomization resources %v, files %v: every manifest is applied, and nothing else", k.Resources, files)
	}
}

func TestObjectsFitTogether(t *testing.T) {
	m := built(t)
	ns := m.namespace.Name
	for obj, got := range m.namespaceOf {
		if got != ns {
			t.Errorf("%s is in namespace %q, want %q", obj, got, ns)
		}
	}

	sts := m.server
	pod := sts.Spec.Template
	if len(pod.Spec.Containers) != 1 {
		t.Fatalf("%d containers", len(pod.Spec.Containers))
	}
	c := pod.Spec.Containers[0]
	ports := map[string]int32{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	args := map[string]string{}
	for _, a := range c.Args {
		k, v, _ := strings.Cut(a, "=")
		args[k] = v
	}

	t.Run("the StatefulSet selects its pods and names them under the headless Service", func(t *testing.T) {
		if !matches(sts.Spec.Selector.MatchLabels, pod.Labels) || len(sts.Spec.Selector.MatchLabels) == 0 {
			t.Errorf("selector %v, pod labels %v", sts.Spec.Selector.MatchLabels, pod.Labels)
		}
		headless := m.services[sts.Spec.ServiceName]
		if headless == nil || headless.Spec.ClusterIP != corev1.ClusterIPNone || !headless.Spec.PublishNotReadyAddresses {
			t.Errorf("serviceName %q must be a headless Service that publishes not-ready (draining) pods: %+v", sts.Spec.ServiceName, headless)
		}
		if sts.Spec.Replicas != nil {
			t.Errorf("replicas %d: leave the count to the HorizontalPodAutoscaler", *sts.Spec.Replicas)
		}
	})

	t.Run("every Service reaches pods of one workload on a port they name", func(t *testing.T) {
		routerPod := m.router.Spec.Template
		for name, svc := range m.services {
			var target corev1.PodTemplateSpec
			switch {
			case matches(svc.Spec.Selector, pod.Labels) && !matches(svc.Spec.Selector, routerPod.Labels):
				target = pod
			case matches(svc.Spec.Selector, routerPod.Labels) && !matches(svc.Spec.Selector, pod.Labels):
				target = routerPod
			default:
				t.Errorf("service %s selector %v selects the pods of not exactly one workload", name, svc.Spec.Selector)
				continue
			}
			for _, p := range svc.Spec.Ports {
				if p.TargetPort.Type != intstr.String || !hasPort(target.Spec.Containers[0], p.TargetPort.StrVal) {
					t.Errorf("service %s port %s targets %s, which is no named port of its pods", name, p.Name, p.TargetPort.String())
				}
			}
		}
	})

	t.Run("probes: ready on /readyz, alive on /healthz, on the MCP port", func(t *testing.T) {
		// deploy_test.go (in the server's module) asks the real binary for
		// these very paths.
		for name, p := range map[string]struct {
			probe *corev1.Probe
			path  string
		}{"readiness": {c.ReadinessProbe, "/readyz"}, "liveness": {c.LivenessProbe, "/healthz"}} {
			if p.probe == nil || p.probe.HTTPGet == nil || p.probe.HTTPGet.Path != p.path || p.probe.HTTPGet.Port.StrVal != "http" {
				t.Errorf("%s probe %+v: want GET %s on port http", name, p.probe, p.path)
			}
		}
		if ports["http"] == 0 || args["--addr"] != fmt.Sprintf("0.0.0.0:%d", ports["http"]) || args["--transport"] != "http" {
			t.Errorf("port http %d, args %v", ports["http"], c.Args)
		}
	})

	t.Run("grace: preStop sleep plus the server's shutdown grace fit in the termination grace", func(t *testing.T) {
		for _, w := range []struct {
			name  string
			spec  corev1.PodSpec
			grace time.Duration
		}{
			// After its grace the server still closes what is left (at
			// most 2 s, serveUntilDone in cmd/flightserver/serve.go) and
			// flushes the last spans (at most 5 s, run in
			// cmd/flightserver/main.go); --drain-delay, when set, comes
			// before the grace.
			{"flightserver", pod.Spec, duration(t, args["--shutdown-grace"]) + optionalDuration(t, args["--drain-delay"]) + 2*time.Second + 5*time.Second},
			{"router", m.router.Spec.Template.Spec, routerShutdown(t)},
		} {
			pre := w.spec.Containers[0].Lifecycle
			if pre == nil || pre.PreStop == nil || pre.PreStop.Sleep == nil || pre.PreStop.Exec != nil {
				t.Errorf("%s: preStop must be the native sleep action (the image has no shell): %+v", w.name, pre)
				continue
			}
			sleep := time.Duration(pre.PreStop.Sleep.Seconds) * time.Second
			term := w.spec.TerminationGracePeriodSeconds
			if term == nil {
				t.Errorf("%s: no terminationGracePeriodSeconds", w.name)
			} else if sleep < 3*time.Second || time.Duration(*term)*time.Second <= sleep+w.grace {
				t.Errorf("%s: preStop %v + shutdown %v must be under terminationGracePeriodSeconds %ds", w.name, sleep, w.grace, *term)
			}
		}
	})

	t.Run("GOMEMLIMIT is the container's memory limit in bytes", func(t *testing.T) {
		e := env(c, "GOMEMLIMIT")
		if e == nil || e.ValueFrom == nil || e.ValueFrom.ResourceFieldRef == nil {
			t.Fatalf("GOMEMLIMIT %+v: want a resourceFieldRef", e)
		}
		r := e.ValueFrom.ResourceFieldRef
		if r.Resource != "limits.memory" || r.ContainerName != c.Name || r.Divisor.String() != "1" || c.Resources.Limits.Memory().IsZero() {
			t.Errorf("GOMEMLIMIT from %+v (divisor %s), memory limit %s: want limits.memory of this container with divisor 1 (bare bytes)",
				r, r.Divisor.String(), c.Resources.Limits.Memory())
		}
		for _, res := range []string{"cpu", "memory"} {
			if c.Resources.Requests.Name(corev1.ResourceName(res), "").IsZero() || c.Resources.Limits.Name(corev1.ResourceName(res), "").IsZero() {
				t.Errorf("resources %+v: requests and limits for %s", c.Resources, res)
			}
		}
	})

	t.Run("the image is pinned", func(t *testing.T) {
		for _, img := range []string{c.Image, m.router.Spec.Template.Spec.Containers[0].Image} {
			name, tag, tagged := strings.Cut(img[strings.LastIndex(img, "/")+1:], ":")
			if !strings.Contains(img, "@sha256:") && (!tagged || tag == "" || tag == "latest") {
				t.Errorf("image %q (%s): pin a tag or a digest, never latest", img, name)
			}
		}
	})

	t.Run("every secret the pod reads is generated, and the pod reads the state key and the token", func(t *testing.T) {
		refs := map[string]bool{}
		for _, e := range c.Env {
			r := e.ValueFrom
			if r == nil || r.SecretKeyRef == nil {
				continue
			}
			if r.SecretKeyRef.Name != m.secret.Name {
				t.Errorf("env %s reads secret %s, not the generated %s", e.Name, r.SecretKeyRef.Name, m.secret.Name)
			}
			if _, ok := m.secret.Data[r.SecretKeyRef.Key]; !ok && (r.SecretKeyRef.Optional == nil || !*r.SecretKeyRef.Optional) {
				t.Errorf("env %s reads key %s, which the Secret does not hold", e.Name, r.SecretKeyRef.Key)
			}
			refs[e.Name] = true
		}
		if !refs["FLIGHTSERVER_STATE_KEY"] || !refs["FLIGHTSERVER_AUTH_TOKEN"] {
			t.Errorf("the pod must read the state key and the auth token from the Secret: %v", refs)
		}
	})

	t.Run("metrics: a named port, the flag, the annotations, and the policy agree", func(t *testing.T) {
		if ports["metrics"] == 0 || args["--metrics-addr"] != fmt.Sprintf("0.0.0.0:%d", ports["metrics"]) {
			t.Errorf("port metrics %d, --metrics-addr %q", ports["metrics"], args["--metrics-addr"])
		}
		a := pod.Annotations
		if a["prometheus.io/scrape"] != "true" || a["prometheus.io/port"] != strconv.Itoa(int(ports["metrics"])) || a["prometheus.io/path"] != "/metrics" {
			t.Errorf("scrape annotations %v", a)
		}
		if ports["metrics"] == ports["http"] {
			t.Error("metrics must not be served on the MCP port")
		}
	})

	t.Run("the disruption budgets and the autoscaler aim at the workloads", func(t *testing.T) {
		for name, labels := range map[string]map[string]string{sts.Name: pod.Labels, m.router.Name: m.router.Spec.Template.Labels} {
			pdb := m.budgets[name]
			if pdb == nil || pdb.Spec.Selector == nil || !matches(pdb.Spec.Selector.MatchLabels, labels) {
				t.Errorf("PodDisruptionBudget %s %+v does not select its pods %v", name, pdb, labels)
				continue
			}
			if pdb.Spec.MaxUnavailable == nil || pdb.Spec.MaxUnavailable.IntValue() != 1 {
				t.Errorf("PodDisruptionBudget %s: maxUnavailable %v, want 1 (one pod at a time, and drains can proceed)", name, pdb.Spec.MaxUnavailable)
			}
		}
		hpa := m.autoscaler.Spec
		if ref := hpa.ScaleTargetRef; ref.Kind != "StatefulSet" || ref.Name != sts.Name || ref.APIVersion != "apps/v1" {
			t.Errorf("autoscaler targets %+v", ref)
		}
		if hpa.MinReplicas == nil || *hpa.MinReplicas < 2 || hpa.MaxReplicas < *hpa.MinReplicas {
			t.Errorf("autoscaler min %v max %d", hpa.MinReplicas, hpa.MaxReplicas)
		}
		if len(hpa.Metrics) != 1 || hpa.Metrics[0].Resource == nil || hpa.Metrics[0].Resource.Name != corev1.ResourceCPU ||
			hpa.Metrics[0].Resource.Target.AverageUtilization == nil {
			t.Errorf("autoscaler metrics %+v: want CPU utilization", hpa.Metrics)
		}
	})

	t.Run("the pods spread over nodes and zones", func(t *testing.T) {
		keys := map[string]bool{}
		for _, s := range pod.Spec.TopologySpreadConstraints {
			if s.LabelSelector == nil || !matches(s.LabelSelector.MatchLabels, pod.Labels) {
				t.Errorf("spread constraint %s selects %v, not these pods", s.TopologyKey, s.LabelSelector)
			}
			keys[s.TopologyKey] = true
		}
		if !keys["kubernetes.io/hostname"] || !keys["topology.kubernetes.io/zone"] {
			t.Errorf("spread over %v, want nodes and zones", keys)
		}
	})

	t.Run("network policies: MCP only from the router, the router only from the ingress controller, metrics only from monitoring", func(t *testing.T) {
		srv, rt := m.netpols[sts.Name], m.netpols[m.router.Name]
		if srv == nil || rt == nil {
			t.Fatalf("network policies %v", m.netpols)
		}
		if !matches(srv.Spec.PodSelector.MatchLabels, pod.Labels) || !matches(rt.Spec.PodSelector.MatchLabels, m.router.Spec.Template.Labels) {
			t.Error("network policies select the wrong pods")
		}
		from := func(p *networkingv1.NetworkPolicy, port string) []networkingv1.NetworkPolicyPeer {
			var peers []networkingv1.NetworkPolicyPeer
			for _, r := range p.Spec.Ingress {
				for _, pp := range r.Ports {
					if pp.Port != nil && pp.Port.String() == port {
						peers = append(peers, r.From...)
					}
				}
			}
			return peers
		}
		if p := from(srv, "http"); len(p) != 1 || p[0].PodSelector == nil || !matches(p[0].PodSelector.MatchLabels, m.router.Spec.Template.Labels) || p[0].NamespaceSelector != nil {
			t.Errorf("flightserver's MCP port admits %+v, want only the router's pods", p)
		}
		if p := from(srv, "metrics"); len(p) != 1 || p[0].NamespaceSelector == nil || p[0].NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"] != "monitoring" {
			t.Errorf("flightserver's metrics port admits %+v, want the monitoring namespace", p)
		}
		if p := from(rt, "http"); len(p) != 1 || p[0].NamespaceSelector == nil || p[0].NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"] != "ingress-nginx" {
			t.Errorf("the router admits %+v, want the ingress controller's namespace", p)
		}
		egress := func(p *networkingv1.NetworkPolicy) map[string]bool {
			out := map[string]bool{}
			for _, r := range p.Spec.Egress {
				for _, pp := range r.Ports {
					out[fmt.Sprintf("%s/%s", *pp.Protocol, pp.Port.String())] = true
				}
			}
			return out
		}
		for _, want := range []string{"UDP/53", "TCP/53", "TCP/443"} {
			if !egress(srv)[want] {
				t.Errorf("flightserver may not send %s out (DNS, and HTTPS for the server-side LLM): %v", want, egress(srv))
			}
		}
		if e := egress(rt); !e["UDP/53"] || !e[fmt.Sprintf("TCP/%d", ports["http"])] || e["TCP/443"] {
			t.Errorf("router egress %v: DNS and the pods' MCP port only", e)
		}
	})

	t.Run("the Ingress sends /mcp to the router, unbuffered", func(t *testing.T) {
		rules := m.ingress.Spec.Rules
		if len(rules) != 1 || rules[0].HTTP == nil || len(rules[0].HTTP.Paths) != 1 {
			t.Fatalf("ingress rules %+v", rules)
		}
		p := rules[0].HTTP.Paths[0]
		svc := m.services[p.Backend.Service.Name]
		if p.Path != "/mcp" || svc == nil || !matches(svc.Spec.Selector, m.router.Spec.Template.Labels) || !servicePort(svc, p.Backend.Service.Port.Name) {
			t.Errorf("ingress path %s to %+v: want /mcp to the router's Service by port name", p.Path, p.Backend.Service)
		}
		if m.ingress.Annotations["nginx.ingress.kubernetes.io/proxy-buffering"] != "off" {
			t.Errorf("ingress annotations %v: server-sent events need buffering off", m.ingress.Annotations)
		}
	})

	t.Run("the router mounts the generated nginx.conf", func(t *testing.T) {
		spec := m.router.Spec.Template.Spec
		var cm string
		for _, v := range spec.Volumes {
			if v.ConfigMap != nil {
				cm = v.ConfigMap.Name
			}
		}
		if cm != m.configMap.Name || !strings.HasPrefix(cm, "flightserver-router-") {
			t.Errorf("router reads ConfigMap %q; kustomize generated %q", cm, m.configMap.Name)
		}
		conf, err := os.ReadFile("nginx.conf")
		if err != nil {
			t.Fatal(err)
		}
		if m.configMap.Data["nginx.conf"] != string(conf) {
			t.Error("the ConfigMap does not hold nginx.conf as committed")
		}
		var mounted bool
		for _, vm := range spec.Containers[0].VolumeMounts {
			mounted = mounted || (vm.MountPath == "/etc/nginx/nginx.conf" && vm.SubPath == "nginx.conf")
		}
		if !mounted {
			t.Errorf("nginx.conf is not mounted at /etc/nginx/nginx.conf: %+v", spec.Containers[0].VolumeMounts)
		}
	})

	t.Run("nginx.conf names the objects as they are", func(t *testing.T) {
		b, err := os.ReadFile("nginx.conf")
		if err != nil {
			t.Fatal(err)
		}
		conf := string(b)
		any := fmt.Sprintf("%s.%s.svc.cluster.local:%d", "flightserver", ns, servicePortNumber(m.services["flightserver"], "http"))
		pods := fmt.Sprintf("${flightserver_replica}.%s.%s.svc.cluster.local:%d", sts.Spec.ServiceName, ns, ports["http"])
		route := fmt.Sprintf(`"~^fs-(%s-[0-9]{1,5})-[0-9a-f]{32}$" $1;`, sts.Name)
		for _, want := range []string{any, pods, route, "listen " + strconv.Itoa(int(m.router.Spec.Template.Spec.Containers[0].Ports[0].ContainerPort)) + ";",
			"location = /router/healthz", "proxy_set_header X-Real-IP"} {
			if !strings.Contains(conf, want) {
				t.Errorf("nginx.conf does not contain %q", want)
			}
		}
		if args["--client-ip-header"] != "X-Real-IP" {
			t.Errorf("--client-ip-header %q: the router passes the client's address in X-Real-IP", args["--client-ip-header"])
		}
		if args["--served-by"] != "$(POD_NAME)" || env(c, "POD_NAME") == nil || env(c, "POD_NAME").ValueFrom.FieldRef.FieldPath != "metadata.name" {
			t.Errorf("--served-by %q: the router finds a session's pod by the pod name it carries", args["--served-by"])
		}
		rp := m.router.Spec.Template.Spec.Containers[0].ReadinessProbe
		if rp == nil || rp.HTTPGet == nil || rp.HTTPGet.Path != "/router/healthz" {
			t.Errorf("router readiness %+v", rp)
		}
	})
}

// routerShutdown is nginx.conf's worker_shutdown_timeout.
func routerShutdown(t *testing.T) time.Duration {
	t.Helper()
	b, err := os.ReadFile("nginx.conf")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^worker_shutdown_timeout (\S+);`).FindSubmatch(b)
	if m == nil {
		t.Fatal("nginx.conf sets no worker_shutdown_timeout: a stream could hold the router past its grace")
	}
	return duration(t, string(m[1]))
}

// optionalDuration is duration for a flag that may be left out (zero).
func optionalDuration(t *testing.T, s string) time.Duration {
	t.Helper()
	if s == "" {
		return 0
	}
	return duration(t, s)
}

func duration(t *testing.T, s string) time.Duration {
	t.Helper()
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatalf("duration %q: %v", s, err)
	}
	return d
}

// matches reports whether every key of selector has its value in labels.
func matches(selector, labels map[string]string) bool {
	if len(selector) == 0 {
		return false
	}
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func hasPort(c corev1.Container, name string) bool {
	return slices.ContainsFunc(c.Ports, func(p corev1.ContainerPort) bool { return p.Name == name })
}

func servicePort(svc *corev1.Service, name string) bool {
	return servicePortNumber(svc, name) != 0
}

func servicePortNumber(svc *corev1.Service, name string) int32 {
	for _, p := range svc.Spec.Ports {
		if p.Name == name {
			return p.Port
		}
	}
	return 0
}

func env(c corev1.Container, name string) *corev1.EnvVar {
	for i := range c.Env {
		if c.Env[i].Name == name {
			return &c.Env[i]
		}
	}
	return nil
}
