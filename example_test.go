package hone_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"sync"

	"github.com/hone-dev/hone"
)

// The examples' fixtures live inside hone's own repository, whose commit
// history is hone's, not theirs: they read none (a repository of your own
// leaves History at its zero value).
var noHistory = hone.History{Off: true}

// Open a repository once, then retrieve for a task.
func Example() {
	cache, _ := os.MkdirTemp("", "hone-example")
	defer os.RemoveAll(cache)
	ctx := context.Background()
	repo, err := hone.Open(ctx, "testdata/auth-service", hone.Options{CacheDir: cache, History: noHistory})
	if err != nil {
		log.Fatal(err)
	}
	res, err := repo.Retrieve(ctx, "Fix the authentication token expiry bug", hone.RetrieveOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Files {
		fmt.Println(f.Path)
	}
	// Unordered output:
	// src/auth/tokens.ts
	// src/auth/auth.ts
	// src/auth/session-manager.ts
	// src/auth/jwt-utils.ts
}

// A Repo serves many retrievals at once.
func ExampleRepo_Retrieve_concurrent() {
	cache, _ := os.MkdirTemp("", "hone-example")
	defer os.RemoveAll(cache)
	ctx := context.Background()
	repo, err := hone.Open(ctx, "testdata/api-gateway", hone.Options{CacheDir: cache, History: noHistory})
	if err != nil {
		log.Fatal(err)
	}
	tasks := []string{"Add rate limiting to API endpoints", "Orders need a total", "CORS rejects our origin"}
	best := make([]string, len(tasks))
	var wg sync.WaitGroup
	for i, task := range tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := repo.Retrieve(ctx, task, hone.RetrieveOptions{})
			if err == nil && len(res.Ranked) > 0 {
				best[i] = res.Ranked[0].Path
			}
		}()
	}
	wg.Wait()
	fmt.Println(best[1])
	fmt.Println(best[2])
	// Output:
	// src/handlers/orders.ts
	// src/middleware/cors.ts
}

// Start runs the loop one step at a time, for a caller that judges the
// candidates itself (an agent over MCP does this).
func ExampleRepo_Start() {
	cache, _ := os.MkdirTemp("", "hone-example")
	defer os.RemoveAll(cache)
	ctx := context.Background()
	repo, err := hone.Open(ctx, "testdata/auth-service", hone.Options{CacheDir: cache, History: noHistory})
	if err != nil {
		log.Fatal(err)
	}
	sess, err := repo.Start(ctx, "Fix the authentication token expiry bug", hone.RetrieveOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for {
		cands, err := sess.Dispatch(ctx)
		if err != nil {
			log.Fatal(err)
		}
		if len(cands) == 0 {
			break // nothing left to judge: sess.Done() says why
		}
		var evals []hone.Evaluation
		found := false
		for _, c := range cands {
			rel := 0.1
			if c.Path == "src/auth/tokens.ts" {
				rel, found = 0.95, true // this caller knows where expiry is computed
			}
			evals = append(evals, hone.Evaluation{Path: c.Path, Relevance: rel, Reason: "my judgment"})
		}
		done, err := sess.Judge(ctx, evals)
		if err != nil {
			log.Fatal(err)
		}
		// Enough: end the session, after the second looks of any judgment
		// hone's evidence disputes (the next Dispatch offers them).
		if done || (found && sess.Finish("the caller has the file to change")) {
			break
		}
	}
	res := sess.Result()
	fmt.Println(res.Files[0].Path)
	// Output:
	// src/auth/tokens.ts
}

// A first contact (no index in the cache) answers without waiting for the
// whole index; the next Open completes it.
func ExampleOptions_firstAnswer() {
	cache, _ := os.MkdirTemp("", "hone-example")
	defer os.RemoveAll(cache)
	ctx := context.Background()
	opts := hone.Options{CacheDir: cache, History: noHistory, FirstAnswer: true}
	for range 2 {
		repo, err := hone.Open(ctx, "testdata/auth-service", opts)
		if err != nil {
			log.Fatal(err)
		}
		res, err := repo.Retrieve(ctx, "Fix the authentication token expiry bug", hone.RetrieveOptions{})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("best %s; partial index: %v\n", res.Ranked[0].Path, res.Stats.Unparsed > 0)
	}
	// Output:
	// best src/auth/tokens.ts; partial index: true
	// best src/auth/tokens.ts; partial index: false
}
