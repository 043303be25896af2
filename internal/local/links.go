package local

import (
	"fmt"
	"math"
	"path"
	"sort"

	"github.com/hone-dev/hone/internal/index"
)

// Links: a file one hop from relevant files in the code graph (imports,
// imported by, defines a name they use) shares in their relevance, damped
// for hubs and capped at LinkCap. The files a relevant file most often
// changed with in the commit history are not links here (see Support: as a
// ranking signal they lifted the target's partners above it, dev-short Acc@1
// 52.5 -> 51.4).

// linkSignals adds j's links to the relevant files (relevance by file; uses
// maps a name to the relevant files that use it), strongest first, within
// LinkCap.
func (e *Evaluator) linkSignals(j *judged, relevant map[index.ID]float64, uses map[string][]index.ID) {
	var links []contribution
	seen := map[index.ID]bool{}
	for _, peer := range e.ix.Imports(j.id) {
		if r := relevant[peer]; r > 0 && peer != j.id && !seen[peer] {
			seen[peer] = true
			links = append(links, contribution{"imports " + path.Base(e.ix.File(peer).Path), WeightImport * r})
		}
	}
	importers := e.ix.ImportedBy(j.id)
	for _, peer := range importers {
		if r := relevant[peer]; r > 0 && peer != j.id && !seen[peer] {
			seen[peer] = true
			links = append(links, contribution{"imported by " + path.Base(e.ix.File(peer).Path), WeightImport * r * hub(len(importers))})
		}
	}
	users := map[index.ID]bool{}
	for _, d := range e.ix.File(j.id).Defs {
		if !e.specific(d.Name) {
			continue // __init__, save, run: defined everywhere, links nothing
		}
		damp := 1.0
		if len(uses[d.Name]) > 0 {
			damp = hub(e.ix.ReferencingCount(d.Name))
		}
		for _, peer := range uses[d.Name] {
			if r := relevant[peer]; peer != j.id && !users[peer] {
				users[peer] = true
				links = append(links, contribution{fmt.Sprintf("defines %s used by %s", d.Name, path.Base(e.ix.File(peer).Path)), WeightDefUse * r * damp})
			}
		}
	}
	sort.SliceStable(links, func(a, b int) bool {
		if links[a].value != links[b].value {
			return links[a].value > links[b].value
		}
		return links[a].label < links[b].label // equal links in a fixed order
	})
	sum := 0.0
	for _, l := range links {
		v := math.Min(l.value, LinkCap-sum)
		if v <= 0.0005 {
			break
		}
		sum += v
		j.signals = append(j.signals, l)
		j.signals[len(j.signals)-1].value = v
	}
}

// hub returns the share of a link's weight kept when the linked name or file
// has n users: all of it up to HubUsers, then sqrt(HubUsers/n). A class
// every module uses, or a module every module imports, links a relevant
// file to everything.
func hub(n int) float64 {
	if n <= HubUsers {
		return 1
	}
	return math.Sqrt(float64(HubUsers) / float64(n))
}
