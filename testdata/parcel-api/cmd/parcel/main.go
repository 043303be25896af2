package main

import (
	"log"
	"net/http"

	"example.com/parcel/internal/config"
	"example.com/parcel/internal/server"
)

func main() {
	cfg := config.FromEnv()
	log.Printf("parcel-api on %s", cfg.Addr)
	log.Fatal(http.ListenAndServe(cfg.Addr, server.Routes(cfg)))
}
