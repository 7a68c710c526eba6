package orderengine

// LogConfig configures structured logging.
type LogConfig struct {
	// Level is debug, info, warn or error. Default info.
	Level string `json:"level"`
	// Format is text or json. Default text.
	Format string `json:"format"`
}

func defaultLog() LogConfig { return LogConfig{Level: "info", Format: "text"} }
