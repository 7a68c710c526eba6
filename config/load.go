package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// EnvPrefix starts every environment variable the engine reads.
const EnvPrefix = "ORDERENGINE_"

// ConfigFileEnv names the environment variable holding the optional JSON
// configuration file; the --config flag overrides it.
const ConfigFileEnv = EnvPrefix + "CONFIG"

// Field describes one configurable leaf of Config: its JSON path, the
// environment variable and the flag that set it, derived in one place
// (Fields) from the struct's json tags.
type Field struct {
	// Path is the dotted JSON path, e.g. "http.adminListen".
	Path string
	// Env is the environment variable, e.g. ORDERENGINE_HTTP_ADMIN_LISTEN.
	Env string
	// Flag is the command-line flag without dashes, e.g. http-admin-listen.
	Flag string
	// Type is the Go type of the field.
	Type string
	// Default is the value in Default(), formatted as a flag value.
	Default string

	index []int
}

// Fields lists every configurable leaf of Config in declaration order.
// Structs are descended into (except time types); slices, maps and other
// composite values are leaves whose flag and environment values are JSON.
func Fields() []Field {
	def := reflect.ValueOf(Default())
	var out []Field
	var walk func(t reflect.Type, path, words []string, index []int)
	walk = func(t reflect.Type, path, words []string, index []int) {
		for i := range t.NumField() {
			sf := t.Field(i)
			name := jsonName(sf)
			if name == "" {
				continue
			}
			p := append(append([]string{}, path...), name)
			w := append(append([]string{}, words...), splitWords(name)...)
			idx := append(append([]int{}, index...), i)
			if sf.Type.Kind() == reflect.Struct && sf.Type != reflect.TypeFor[time.Time]() {
				walk(sf.Type, p, w, idx)
				continue
			}
			out = append(out, Field{
				Path:    strings.Join(p, "."),
				Env:     EnvPrefix + strings.ToUpper(strings.Join(w, "_")),
				Flag:    strings.ToLower(strings.Join(w, "-")),
				Type:    sf.Type.String(),
				Default: formatValue(def.FieldByIndex(idx)),
				index:   idx,
			})
		}
	}
	walk(def.Type(), nil, nil, nil)
	return out
}

func jsonName(sf reflect.StructField) string {
	if !sf.IsExported() {
		return ""
	}
	tag := sf.Tag.Get("json")
	name, _, _ := strings.Cut(tag, ",")
	if name == "-" {
		return ""
	}
	if name == "" {
		return sf.Name
	}
	return name
}

// splitWords splits a camelCase json name into lower-case words, keeping
// acronyms together: "devRPCListen" → dev, rpc, listen; "chainId" → chain, id.
func splitWords(s string) []string {
	var words []string
	rs := []rune(s)
	start := 0
	for i := 1; i < len(rs); i++ {
		lowerToUpper := unicode.IsLower(rs[i-1]) && unicode.IsUpper(rs[i])
		acronymEnd := i+1 < len(rs) && unicode.IsUpper(rs[i-1]) && unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i+1])
		digitBoundary := unicode.IsDigit(rs[i]) != unicode.IsDigit(rs[i-1]) && unicode.IsLetter(rs[i-1])
		if lowerToUpper || acronymEnd || digitBoundary {
			words = append(words, strings.ToLower(string(rs[start:i])))
			start = i
		}
	}
	return append(words, strings.ToLower(string(rs[start:])))
}

// LoadConfig builds the configuration: Default(), then the JSON file named
// by --config or ORDERENGINE_CONFIG, then environment variables, then flags
// (later wins). lookupEnv is os.LookupEnv in production. The result is
// validated. Flag usage goes to usage (nil discards it).
func LoadConfig(args []string, lookupEnv func(string) (string, bool), usage io.Writer) (Config, error) {
	cfg := Default()
	if lookupEnv == nil {
		lookupEnv = func(string) (string, bool) { return "", false }
	}
	if usage == nil {
		usage = io.Discard
	}
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") {
			if msg := removedSetting(EnvPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))); msg != "" {
				return cfg, errors.New(strings.Replace(msg, EnvPrefix+strings.ToUpper(strings.ReplaceAll(name, "-", "_")), "--"+name, 1))
			}
		}
	}
	fields := Fields()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(usage)
	configFile := fs.String("config", "", "optional JSON configuration file (env "+ConfigFileEnv+")")
	set := map[string]string{}
	for _, f := range fields {
		f := f
		fs.Func(f.Flag, fmt.Sprintf("%s (%s, env %s, default %q)", f.Path, f.Type, f.Env, f.Default), func(v string) error {
			set[f.Path] = v
			return nil
		})
	}
	for alias, path := range flagAliases() {
		path := path
		fs.Func(alias, "short for the "+path+" flag", func(v string) error {
			set[path] = v
			return nil
		})
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("config: unexpected arguments %q", fs.Args())
	}
	root := reflect.ValueOf(&cfg).Elem()
	file := *configFile
	if file == "" {
		file, _ = lookupEnv(ConfigFileEnv)
	}
	explicit := map[string]bool{} // dotted paths some source set
	if file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return cfg, fmt.Errorf("config: %w", err)
		}
		if err := applyJSON(root, data, ""); err != nil {
			return cfg, fmt.Errorf("config: file %s: %w", file, err)
		}
		var top map[string]json.RawMessage
		if json.Unmarshal(data, &top) == nil {
			for k := range top {
				explicit[k] = true
			}
		}
	}
	for _, f := range fields {
		if v, ok := lookupEnv(f.Env); ok {
			if err := setFromString(root.FieldByIndex(f.index), v); err != nil {
				return cfg, fmt.Errorf("config: %s: %w", f.Env, err)
			}
			explicit[f.Path] = true
		}
	}
	for _, f := range fields {
		if v, ok := set[f.Path]; ok {
			if err := setFromString(root.FieldByIndex(f.index), v); err != nil {
				return cfg, fmt.Errorf("config: --%s: %w", f.Flag, err)
			}
			explicit[f.Path] = true
		}
	}
	if !explicit["dev"] && cfg.Chain.RPCURL != "" {
		// An external node may serve a real network: production mode
		// unless dev is asked for by name (Config.Dev).
		cfg.Dev = false
	}
	return cfg, cfg.Validate()
}

// OtherEnv lists the ORDERENGINE_* variables that are not settings of
// Config but are read by other commands or tools: the configuration file,
// the keeper command's API key and the geth binary of the external-node
// tests.
var OtherEnv = []string{ConfigFileEnv, EnvPrefix + "API_KEY", EnvPrefix + "GETH"}

// removed are settings the engine no longer has, by path, with what an
// operator does instead: a configuration that sets one is refused with
// this message, not ignored.
var removed = map[string]string{
	"cluster.actors": "the members of a cluster find each other, and place the actors, through the JetStream " +
		"cluster of cluster.nats.routes; remove the cluster.actors settings (docs/cluster.md)",
}

// removedSetting returns the message of a removed setting that path (a
// dotted setting path) or env (an ORDERENGINE_ variable) names, "" for
// any other.
func removedSetting(path string) string {
	for p, msg := range removed {
		if path == p || strings.HasPrefix(path, p+".") {
			return fmt.Sprintf("config: %s is no longer a setting: %s", path, msg)
		}
		env := EnvPrefix + strings.ToUpper(strings.ReplaceAll(p, ".", "_")) + "_"
		if strings.HasPrefix(path, env) {
			return fmt.Sprintf("config: %s is no longer a setting: %s", path, msg)
		}
	}
	return ""
}

// CheckEnv reports every ORDERENGINE_* variable of environ (os.Environ()
// format) that names no setting, with the nearest setting's variable when
// one is close: a misspelt variable (ORDERENGINE_DEVE=false) is otherwise
// ignored without a trace and the default (here dev mode) silently runs.
func CheckEnv(environ []string) error {
	known := map[string]bool{}
	var names []string
	for _, f := range Fields() {
		known[f.Env] = true
		names = append(names, f.Env)
	}
	for _, n := range OtherEnv {
		known[n] = true
	}
	var errs []error
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, EnvPrefix) || known[name] {
			continue
		}
		if msg := removedSetting(name); msg != "" {
			errs = append(errs, errors.New(msg))
			continue
		}
		msg := fmt.Sprintf("config: unknown environment variable %s", name)
		if near := nearest(name, names); near != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", near)
		}
		errs = append(errs, errors.New(msg+"; docs/configuration.md lists every setting"))
	}
	return errors.Join(errs...)
}

// nearest returns the candidate closest to s by edit distance when it is
// at most 3 edits away, else "".
func nearest(s string, candidates []string) string {
	best, bestD := "", 4
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// flagAliases maps the short flags people type most to a field's path:
// `serve --rpc-url URL` is `serve --chain-rpc-url URL`.
func flagAliases() map[string]string {
	return map[string]string{
		"rpc-url": "chain.rpcURL",
		"listen":  "http.listen",
	}
}

var (
	durationType  = reflect.TypeFor[time.Duration]()
	durationsType = reflect.TypeFor[[]time.Duration]()
)

// setFromString parses a flag or environment value into v.
func setFromString(v reflect.Value, s string) error {
	if v.Type() == durationType {
		d, err := time.ParseDuration(s)
		if err != nil {
			return err
		}
		v.SetInt(int64(d))
		return nil
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return err
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 0, v.Type().Bits())
		if err != nil {
			return err
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(s, 0, v.Type().Bits())
		if err != nil {
			return err
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(s, v.Type().Bits())
		if err != nil {
			return err
		}
		v.SetFloat(f)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.String && !strings.HasPrefix(strings.TrimSpace(s), "[") {
			// A list of strings: comma-separated in a flag or variable.
			var items []string
			for _, it := range strings.Split(s, ",") {
				if it = strings.TrimSpace(it); it != "" {
					items = append(items, it)
				}
			}
			v.Set(reflect.ValueOf(items).Convert(v.Type()))
			return nil
		}
		return decodeLeaf(v, []byte(s))
	default:
		return decodeLeaf(v, []byte(s))
	}
	return nil
}

// decodeLeaf sets v, a list, map or other composite leaf, from JSON text,
// for the file, the environment and flags alike. The value replaces the
// default whole: decoded into the default, a list's entries would keep the
// default entry's fields at the same index and a map the default's other
// keys. Unknown fields and anything after the value are errors.
func decodeLeaf(v reflect.Value, data []byte) error {
	if v.Type() == durationsType { // each entry as a single duration: "10s" or nanoseconds
		var raw []json.RawMessage
		if err := decodeLeaf(reflect.ValueOf(&raw).Elem(), data); err != nil {
			return err
		}
		ds := make([]time.Duration, len(raw))
		for i, r := range raw {
			if err := applyJSON(reflect.ValueOf(&ds[i]).Elem(), r, ""); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		v.Set(reflect.ValueOf(ds))
		return nil
	}
	fresh := reflect.New(v.Type())
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(fresh.Interface()); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON value")
	}
	v.Set(fresh.Elem())
	return nil
}

// applyJSON merges a JSON document into v field by field, so a file may set
// a few fields and keep every other default. Durations accept "10s" strings
// or integer nanoseconds, lists of durations a list of either. Unknown keys
// are an error.
func applyJSON(v reflect.Value, data []byte, path string) error {
	if v.Type() == durationType {
		var s string
		if err := json.Unmarshal(data, &s); err == nil {
			return setFromString(v, s)
		}
		return json.Unmarshal(data, v.Addr().Interface())
	}
	if v.Kind() != reflect.Struct || v.Type() == reflect.TypeFor[time.Time]() {
		return decodeLeaf(v, data)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		if json.Valid(data) {
			// Valid JSON of another kind: say what was expected rather
			// than quote the decoder's Go types.
			err = errors.New("must be a JSON object")
		}
		if path == "" {
			return err
		}
		return fmt.Errorf("%s: %w", strings.TrimPrefix(path, "."), err)
	}
	byName := map[string]int{}
	for i := range v.NumField() {
		if name := jsonName(v.Type().Field(i)); name != "" {
			byName[name] = i
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		i, ok := byName[k]
		if !ok {
			full := strings.TrimPrefix(path+"."+k, ".")
			if msg := removedSetting(full); msg != "" {
				return errors.New(msg)
			}
			return fmt.Errorf("unknown key %q", full)
		}
		f := v.Field(i)
		if err := applyJSON(f, obj[k], path+"."+k); err != nil {
			if f.Kind() == reflect.Struct && f.Type() != reflect.TypeFor[time.Time]() {
				return err // a section names the key's full path itself
			}
			return fmt.Errorf("%s: %w", strings.TrimPrefix(path+"."+k, "."), err)
		}
	}
	return nil
}

func formatValue(v reflect.Value) string {
	if v.Type() == durationType {
		return time.Duration(v.Int()).String()
	}
	if v.Type() == durationsType {
		ss := make([]string, v.Len())
		for i := range ss {
			ss[i] = time.Duration(v.Index(i).Int()).String()
		}
		data, _ := json.Marshal(ss)
		return string(data)
	}
	switch v.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32,
		reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return fmt.Sprint(v.Interface())
	}
	data, err := json.Marshal(v.Interface())
	if err != nil {
		return "?"
	}
	return string(data)
}

// namedDuration is a duration setting and its dotted path.
type namedDuration struct {
	path string
	d    time.Duration
}

// notNegative reports every duration below zero by its setting (for the
// settings where zero means the default, a negative value was silently read
// as zero).
func notNegative(ds ...namedDuration) error {
	var errs []error
	for _, d := range ds {
		if d.d < 0 {
			errs = append(errs, fmt.Errorf("%s must not be negative, got %s", d.path, d.d))
		}
	}
	return errors.Join(errs...)
}

// Validate checks the whole configuration and returns every problem found.
// Sections with a Validate() error method are checked automatically, so a
// new section only has to define one.
func (c Config) Validate() error {
	var errs []error
	if c.DataDir == "" {
		errs = append(errs, errors.New("dataDir must not be empty"))
	}
	errs = append(errs, c.Log.validate(), c.HTTP.validate(), c.Limits.validate(), c.Chain.Validate(c.Dev),
		c.Lifecycle.Validate(c.Chain))
	if c.Cluster.Enabled && c.Chain.RPCURL == "" {
		errs = append(errs, errors.New("cluster.enabled needs chain.rpcURL: the nodes share one chain (make cluster serves one dev chain for them)"))
	}
	v := reflect.ValueOf(c)
	for i := range v.NumField() {
		if val, ok := v.Field(i).Interface().(interface{ Validate() error }); ok {
			errs = append(errs, val.Validate())
		}
	}
	return errors.Join(errs...)
}
