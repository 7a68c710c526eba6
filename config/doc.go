// Package config is the engine's configuration: one Config struct whose
// defaults are Default (the embedded dev chain, Pebble in ./data), loaded
// once at start from a file, ORDERENGINE_* environment variables and flags
// (Load), validated, and passed down. Each section is declared in its own
// file with its fields' zero values and defaults documented.
package config
