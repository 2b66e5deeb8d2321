// Package config holds the example service's settings.
package config

import "os"

// Settings are read from the environment at start-up.
type Settings struct {
	DatabaseURL string
	PaymentsKey string
}

// FromEnv reads the settings from the environment.
func FromEnv() Settings {
	return Settings{
		DatabaseURL: os.Getenv("DATABASE_URL"),
		PaymentsKey: os.Getenv("PAYMENTS_API_KEY"),
	}
}
