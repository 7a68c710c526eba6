package orderengine

import "time"

// HTTPConfig configures the public and admin listeners.
type HTTPConfig struct {
	// Listen is the public API address. Default 127.0.0.1:8080.
	Listen string `json:"listen"`
	// AdminListen is the admin API address; it must be a loopback address.
	// Default 127.0.0.1:8081.
	AdminListen string `json:"adminListen"`
	// AdminToken guards the admin API. Empty means a random token is
	// generated at start and written to <DataDir>/admin.token (mode 0600).
	AdminToken string `json:"adminToken"`
	// BodyLimit is the largest accepted request body. Default 64 KiB.
	BodyLimit int `json:"bodyLimit"`
	// ReadTimeout, WriteTimeout and IdleTimeout bound each connection.
	ReadTimeout  time.Duration `json:"readTimeout"`
	WriteTimeout time.Duration `json:"writeTimeout"`
	IdleTimeout  time.Duration `json:"idleTimeout"`
	// ShutdownTimeout bounds the drain of in-flight requests on SIGTERM.
	ShutdownTimeout time.Duration `json:"shutdownTimeout"`
}

func defaultHTTP() HTTPConfig {
	return HTTPConfig{
		Listen:          "127.0.0.1:8080",
		AdminListen:     "127.0.0.1:8081",
		BodyLimit:       64 << 10,
		ReadTimeout:     10 * time.Second,
		WriteTimeout:    30 * time.Second,
		IdleTimeout:     60 * time.Second,
		ShutdownTimeout: 15 * time.Second,
	}
}
