package clusterrun

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"go.yaml.in/yaml/v4"

	"github.com/orderengine/orderengine/config"
)

// obj is a decoded Kubernetes object.
type obj = map[string]any

// at walks a decoded YAML value by map keys and list indexes.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func str(v any, path ...any) string { s, _ := at(v, path...).(string); return s }

// TestKubernetesExample parses every YAML block of docs/kubernetes.md and
// loads the configuration of one pod of its StatefulSet from the
// container's environment, as Kubernetes would set it (the pod's name for
// the field reference, the Secret's values, $(VAR) expanded, the
// ConfigMap's chain.json at its mount path): every variable names a
// setting, the configuration validates, and the routes, peers and
// advertised address name every pod by its stable DNS name through the
// headless Service, which publishes addresses before the pods are ready;
// the pods start in parallel.
func TestKubernetesExample(t *testing.T) {
	byKind := kubernetesObjects(t, filepath.Join("..", "..", "docs", "kubernetes.md"))
	for kind, n := range map[string]int{"Secret": 1, "ConfigMap": 1, "Service": 2, "PodDisruptionBudget": 1, "StatefulSet": 1} {
		if len(byKind[kind]) != n {
			t.Fatalf("%d %s objects, want %d", len(byKind[kind]), kind, n)
		}
	}
	sts := byKind["StatefulSet"][0]
	name, svc := str(sts, "metadata", "name"), str(sts, "spec", "serviceName")
	replicas, _ := at(sts, "spec", "replicas").(int)
	headless := false
	for _, s := range byKind["Service"] {
		if str(s, "metadata", "name") == svc {
			headless = str(s, "spec", "clusterIP") == "None" && at(s, "spec", "publishNotReadyAddresses") == true
		}
	}
	if !headless || replicas != 3 || str(sts, "spec", "podManagementPolicy") != "Parallel" {
		t.Fatalf("StatefulSet %s: service %s headless and publishing unready pods %v, replicas %d, podManagementPolicy %q",
			name, svc, headless, replicas, str(sts, "spec", "podManagementPolicy"))
	}

	const pod = 1
	podName := fmt.Sprintf("%s-%d", name, pod)
	secret := at(byKind["Secret"][0], "stringData").(map[string]any)
	chainFile := filepath.Join(t.TempDir(), "chain.json")
	if err := os.WriteFile(chainFile, []byte(str(byKind["ConfigMap"][0], "data", "chain.json")), 0o644); err != nil {
		t.Fatal(err)
	}
	container := at(sts, "spec", "template", "spec", "containers", 0)
	env := podEnv(container, podName, secret)
	mounted := false
	for _, m := range at(container, "volumeMounts").([]any) {
		if str(m, "mountPath") == filepath.Dir(env["ORDERENGINE_CONFIG"]) {
			mounted = true
		}
	}
	if !mounted {
		t.Fatalf("ORDERENGINE_CONFIG %s is not in a mounted volume", env["ORDERENGINE_CONFIG"])
	}
	env["ORDERENGINE_CONFIG"] = chainFile
	if err := config.CheckEnv(Environ(nil, env)); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadConfig(nil, func(k string) (string, bool) { v, ok := env[k]; return v, ok }, nil)
	if err != nil {
		t.Fatalf("%s's configuration: %v", podName, err)
	}
	c := cfg.Cluster
	if !c.Enabled || c.Node != podName || cfg.Dev || cfg.Chain.RPCURL == "" {
		t.Fatalf("%s: %+v", podName, cfg)
	}
	if len(c.NATS.Routes) != replicas {
		t.Fatalf("routes %v for %d replicas", c.NATS.Routes, replicas)
	}
	for i := range replicas {
		host := fmt.Sprintf("%s-%d.%s", name, i, svc)
		if c.NATS.Routes[i] != "nats://"+host+":6222" {
			t.Fatalf("pod %d: route %s, want %s", i, c.NATS.Routes[i], host)
		}
	}
}

// kubernetesObjects decodes every YAML block of the Markdown file at path,
// by kind.
func kubernetesObjects(t *testing.T, path string) map[string][]obj {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	byKind := map[string][]obj{}
	for _, b := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(data, -1) {
		dec := yaml.NewDecoder(bytes.NewReader(b[1]))
		for {
			var o obj
			err := dec.Decode(&o)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if str(o, "apiVersion") == "" || str(o, "metadata", "name") == "" {
				t.Fatalf("an object without apiVersion or name: %v", o)
			}
			byKind[str(o, "kind")] = append(byKind[str(o, "kind")], o)
		}
	}
	return byKind
}

// podEnv is the container's environment in the pod podName as Kubernetes
// sets it: the pod's name for a metadata.name field reference, the
// Secret's values, $(VAR) references to earlier variables expanded.
func podEnv(container any, podName string, secret map[string]any) map[string]string {
	env := map[string]string{}
	expand := regexp.MustCompile(`\$\(([A-Z0-9_]+)\)`)
	list, _ := at(container, "env").([]any)
	for _, e := range list {
		k := str(e, "name")
		switch {
		case str(e, "valueFrom", "fieldRef", "fieldPath") == "metadata.name":
			env[k] = podName
		case str(e, "valueFrom", "secretKeyRef", "key") != "":
			env[k], _ = secret[str(e, "valueFrom", "secretKeyRef", "key")].(string)
		default:
			env[k] = expand.ReplaceAllStringFunc(str(e, "value"), func(ref string) string { return env[ref[2:len(ref)-1]] })
		}
	}
	return env
}
