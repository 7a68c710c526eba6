package config

import (
	"fmt"
	"io"
	"log/slog"
)

// LogConfig configures structured logging.
type LogConfig struct {
	// Level is debug, info, warn or error. Default info.
	Level string `json:"level"`
	// Format is text or json. Default text.
	Format string `json:"format"`
}

func defaultLog() LogConfig { return LogConfig{Level: "info", Format: "text"} }

func (l LogConfig) validate() error {
	if _, err := l.level(); err != nil {
		return err
	}
	if l.Format != "text" && l.Format != "json" {
		return fmt.Errorf("log.format must be text or json, got %q", l.Format)
	}
	return nil
}

func (l LogConfig) level() (slog.Level, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(l.Level)); err != nil {
		return 0, fmt.Errorf("log.level must be debug, info, warn or error, got %q", l.Level)
	}
	return lv, nil
}

// NewLogger returns the slog logger the configuration describes, writing to
// w. The binary creates it once and passes it down.
func (l LogConfig) NewLogger(w io.Writer) (*slog.Logger, error) {
	if err := l.validate(); err != nil {
		return nil, err
	}
	lv, _ := l.level()
	opts := &slog.HandlerOptions{Level: lv}
	if l.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return slog.New(slog.NewTextHandler(w, opts)), nil
}
