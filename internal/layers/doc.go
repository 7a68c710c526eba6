// Package layers holds the test that keeps the engine's imports pointing
// downwards: the HTTP layer and the composition root sit above the
// services, and no service imports them. The rules are a table in
// layers_test.go; the package has no code of its own.
package layers
