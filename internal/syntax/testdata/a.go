package a

import (
	"fmt"
	x "github.com/x/y"
)

type Server struct{ h Handler }

type Handler interface{ Serve() }

func (s *Server) Run() { fmt.Println(x.Y) }

func (Pair[K, V]) Get() {}

func New() *Server { return nil }

const Max = 3
