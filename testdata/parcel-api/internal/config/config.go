// Package config reads the service's settings from the environment.
package config

import (
	"os"
	"strconv"
)

// Config holds what the server needs at start.
type Config struct {
	Addr        string
	DatabaseURL string
	// PerMinute is how many calls one client address may make per minute.
	PerMinute int
}

// FromEnv reads Config, with defaults for local runs.
func FromEnv() Config {
	c := Config{Addr: ":8081", DatabaseURL: os.Getenv("PARCEL_DB"), PerMinute: 600}
	if v, err := strconv.Atoi(os.Getenv("PARCEL_PER_MINUTE")); err == nil && v > 0 {
		c.PerMinute = v
	}
	if a := os.Getenv("PARCEL_ADDR"); a != "" {
		c.Addr = a
	}
	return c
}
