package main

import (
	"bufio"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// knownVars are the environment variables the binary reads (Config's tags).
func knownVars(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	typ := reflect.TypeOf(Config{})
	for i := range typ.NumField() {
		if tag := typ.Field(i).Tag.Get("envconfig"); tag != "" {
			out[tag] = true
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d envconfig variables found", len(out))
	}
	return out
}

func readYAML(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	var docs []map[string]any
	for {
		var d map[string]any
		if err := dec.Decode(&d); err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatalf("%s: %v", path, err)
		}
		if d != nil {
			docs = append(docs, d)
		}
	}
	return docs
}

func dig(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func TestEnvExampleListsEveryVariableAndNoOthers(t *testing.T) {
	known := knownVars(t)
	f, err := os.Open("../../deploy/.env.example")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, _, ok := strings.Cut(line, "=")
		if !ok {
			t.Errorf(".env.example line %q is not NAME=value", line)
			continue
		}
		if !known[name] {
			t.Errorf(".env.example sets %s, which the binary does not read", name)
		}
		seen[name] = true
	}
	var missing []string
	for v := range known {
		if !seen[v] {
			missing = append(missing, v)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf(".env.example does not document %v", missing)
	}
}

func TestComposeParsesAndUsesKnownVariables(t *testing.T) {
	known := knownVars(t)
	docs := readYAML(t, "../../deploy/compose.yaml")
	if len(docs) != 1 {
		t.Fatalf("compose.yaml: %d documents", len(docs))
	}
	services, _ := docs[0]["services"].(map[string]any)
	if services["redis"] == nil || services["bot"] == nil {
		t.Fatalf("compose services = %v, want bot and redis", services)
	}
	cmd := strings.Join(toStrings(dig(services, "redis", "command")), " ")
	if !strings.Contains(cmd, "--appendonly yes") {
		t.Errorf("redis runs without AOF: %q", cmd)
	}
	env, _ := dig(services, "bot", "environment").(map[string]any)
	for k := range env {
		if !known[k] {
			t.Errorf("compose sets %s, which the binary does not read", k)
		}
	}
	if env["REDIS_URL"] == nil {
		t.Error("compose does not point the bot at its Redis")
	}
}

func TestKubernetesManifestsParseAndUseKnownVariables(t *testing.T) {
	known := knownVars(t)
	kinds := map[string]bool{}
	for _, f := range []string{"namespace.yaml", "configmap.yaml", "secret.example.yaml", "redis.yaml", "deployment.yaml", "service.yaml", "ingress.yaml", "kustomization.yaml"} {
		for _, d := range readYAML(t, "../../deploy/k8s/"+f) {
			kind, _ := d["kind"].(string)
			kinds[kind] = true
			switch kind {
			case "ConfigMap":
				for k := range d["data"].(map[string]any) {
					if !known[k] {
						t.Errorf("ConfigMap sets %s, which the binary does not read", k)
					}
				}
			case "Secret":
				for k := range d["stringData"].(map[string]any) {
					if !known[k] {
						t.Errorf("Secret sets %s, which the binary does not read", k)
					}
				}
			case "Deployment":
				c := dig(d, "spec", "template", "spec", "containers").([]any)[0]
				if dig(c, "readinessProbe", "httpGet", "path") != "/readyz" || dig(c, "livenessProbe", "httpGet", "path") != "/healthz" {
					t.Error("Deployment probes must use /readyz and /healthz")
				}
				if dig(d, "spec", "replicas") != 2 {
					t.Errorf("Deployment replicas = %v, want 2", dig(d, "spec", "replicas"))
				}
			case "Kustomization":
				for _, r := range toStrings(d["resources"]) {
					if _, err := os.Stat("../../deploy/k8s/" + r); err != nil {
						t.Errorf("kustomization lists %s: %v", r, err)
					}
				}
			}
		}
	}
	for _, k := range []string{"Deployment", "ConfigMap", "Secret", "StatefulSet", "Service", "Ingress", "Kustomization"} {
		if !kinds[k] {
			t.Errorf("deploy/k8s has no %s", k)
		}
	}
}

func toStrings(v any) []string {
	xs, _ := v.([]any)
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
