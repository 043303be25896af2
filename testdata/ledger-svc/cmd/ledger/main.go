package main

import (
	"log"
	"net/http"
	"os"
	"time"

	"example.com/ledger/internal/credentials"
	"example.com/ledger/internal/ledger"
	"example.com/ledger/internal/web"
)

func main() {
	issuer := credentials.NewIssuer([]byte(os.Getenv("LEDGER_KEY")), 30*time.Minute)
	books := ledger.NewBooks()
	log.Fatal(http.ListenAndServe(":8090", web.Mux(issuer, books)))
}
