package kubernetes

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/secret"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
)

// creation is how the API server creates one kind: its REST strategy and
// the resource it serves it as.
type creation struct {
	strategy rest.RESTCreateStrategy
	group    string
	resource string
}

var creations = map[string]creation{
	"Namespace":               {namespace.Strategy, "", "namespaces"},
	"Service":                 {service.Strategy, "", "services"},
	"ConfigMap":               {configmap.Strategy, "", "configmaps"},
	"Secret":                  {secret.Strategy, "", "secrets"},
	"StatefulSet":             {statefulset.Strategy, "apps", "statefulsets"},
	"Deployment":              {deployment.Strategy, "apps", "deployments"},
	"Ingress":                 {ingress.Strategy, "networking.k8s.io", "ingresses"},
	"NetworkPolicy":           {networkpolicy.Strategy, "networking.k8s.io", "networkpolicies"},
	"PodDisruptionBudget":     {poddisruptionbudget.Strategy, "policy", "poddisruptionbudgets"},
	"HorizontalPodAutoscaler": {horizontalpodautoscaler.Strategy, "autoscaling", "horizontalpodautoscalers"},
}

// validateCreate does to obj what the API server does to a create request
// after decoding it (rest.BeforeCreate): defaults it, converts it to the
// internal version, fills the namespace from the request, lets the kind's
// strategy prepare it, and validates it with the server's own validation
// code (k8s.io/kubernetes), reporting its errors and warnings. Admission
// plug-ins and webhooks, which depend on the cluster, do not run.
func validateCreate(obj runtime.Object) (errs, warnings []string) {
	gvks, _, err := legacyscheme.Scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		return []string{fmt.Sprintf("%T is not a registered kind: %v", obj, err)}, nil
	}
	gvk := gvks[0]
	c, ok := creations[gvk.Kind]
	if !ok {
		return []string{"no API server strategy known for " + gvk.Kind}, nil
	}
	obj = obj.DeepCopyObject()
	legacyscheme.Scheme.Default(obj)
	internal, err := legacyscheme.Scheme.ConvertToVersion(obj, runtime.InternalGroupVersioner)
	if err != nil {
		return []string{fmt.Sprintf("%s: convert: %v", gvk.Kind, err)}, nil
	}
	m, err := meta.Accessor(internal)
	if err != nil {
		return []string{err.Error()}, nil
	}
	rest.FillObjectMetaSystemFields(m)
	// The Service storage sets clusterIPs from clusterIP before validation
	// (pkg/registry/core/service/storage, when it allocates addresses); a
	// headless Service's "None" is all it copies.
	if svc, ok := internal.(*api.Service); ok && svc.Spec.ClusterIP == api.ClusterIPNone && len(svc.Spec.ClusterIPs) == 0 {
		svc.Spec.ClusterIPs = []string{api.ClusterIPNone}
	}
	info := &genericapirequest.RequestInfo{IsResourceRequest: true, Verb: "create", APIPrefix: "apis",
		APIGroup: c.group, APIVersion: gvk.Version, Resource: c.resource, Name: m.GetName()}
	if c.strategy.NamespaceScoped() {
		info.Namespace = "flightserver"
	}
	rec := &recorder{}
	ctx := genericapirequest.WithNamespace(context.Background(), info.Namespace)
	ctx = genericapirequest.WithRequestInfo(ctx, info)
	ctx = warning.WithWarningRecorder(ctx, rec)
	if err := rest.BeforeCreate(c.strategy, ctx, internal); err != nil {
		var status apierrors.APIStatus
		if errors.As(err, &status) && status.Status().Details != nil && len(status.Status().Details.Causes) > 0 {
			for _, cause := range status.Status().Details.Causes {
				errs = append(errs, cause.Field+": "+cause.Message)
			}
		} else {
			errs = append(errs, err.Error())
		}
	}
	return errs, rec.warnings
}

// recorder keeps the warnings the API server would send the client.
type recorder struct{ warnings []string }

func (r *recorder) AddWarning(_, text string) { r.warnings = append(r.warnings, text) }

// TestTheAPIServerAcceptsEveryObject runs every object kustomize builds
// through the API server's own create validation: required fields, enum
// values, ranges and formats that strict decoding alone does not check.
func TestTheAPIServerAcceptsEveryObject(t *testing.T) {
	objs, err := build(t, secretsEnv)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		obj := o.(runtime.Object)
		errs, warnings := validateCreate(obj)
		name := fmt.Sprintf("%T", obj)
		if m, ok := obj.(interface{ GetName() string }); ok {
			name += " " + m.GetName()
		}
		for _, e := range errs {
			t.Errorf("%s: the API server would refuse it: %s", name, e)
		}
		for _, w := range warnings {
			t.Errorf("%s: the API server would warn: %s", name, w)
		}
	}
}

// TestTheValidationRefusesWhatDecodingAccepts proves the check above can
// fail, with mistakes that decode strictly into the Go types.
func TestTheValidationRefusesWhatDecodingAccepts(t *testing.T) {
	b, err := os.ReadFile("statefulset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ old, new, refusal string }{
		{"              protocol: TCP", "              protocol: TPC", `Unsupported value: "TPC"`},
		{"            - name: metrics\n", "            - name: flightserver-metrics\n", "15"},
		{"                seconds: 5", "                seconds: -1", "preStop"},
		{"  serviceName: flightserver-pods", "  serviceName: Flightserver_Pods", "serviceName"},
		{"          periodSeconds: 5", "          periodSeconds: -5", "periodSeconds"},
	} {
		bad := strings.Replace(string(b), tc.old, tc.new, 1)
		if bad == string(b) {
			t.Fatalf("statefulset.yaml has no %q to spoil", tc.old)
		}
		obj, err := decode([]byte(bad))
		if err != nil {
			t.Fatalf("%s: %v (this case should pass decoding)", tc.new, err)
		}
		errs, warnings := validateCreate(obj.(*appsv1.StatefulSet))
		t.Logf("%s: %v %v", strings.TrimSpace(tc.new), errs, warnings)
		if !strings.Contains(strings.Join(append(errs, warnings...), "\n"), tc.refusal) {
			t.Errorf("%s: errors %v, want one mentioning %q", strings.TrimSpace(tc.new), errs, tc.refusal)
		}
	}
}
