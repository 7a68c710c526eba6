package pair

import (
	"cmp"
	"math/big"
	"math/rand/v2"

	"github.com/RaduBerinde/btreemap"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
)

// A trailing order's peak is the highest oracle price of its pair at the
// evaluations since it was accepted (more exactly: since it last became
// able to trail, see triggers.go). Orders that share a peak share a
// peakGroup, so a new high moves one value per group, not one per order:
// at a price p every group whose peak is at most p merges into one whose
// peak is p (the members of the smaller groups move to the largest, so an
// order moves O(log n) times in its life). An order that joins takes the
// group of its peak, max(its stored peak, p).
//
// An order fires at p when p × 1e6 ≤ peak × (1e6 − trailPpm), so a group
// holds its members by trailPpm: those that fire at p are a prefix. The
// groups are kept by theta = peak × (1e6 − the smallest trailPpm), the
// largest price × 1e6 at which any of their members fires, so the members
// that fire at p are found without looking at the groups where none does.
type peakGroup struct {
	id    uint64
	peak  *big.Int // owned by the group
	theta *big.Int
	// members by trailPpm, then hash.
	members *btreemap.BTreeMap[*openOrder, struct{}]
}

// peakDegree is the B-tree degree of the group indexes and memberships.
const peakDegree = 8

var (
	bigPpm      = big.NewInt(ppm)
	minusOne    = big.NewInt(-1)
	noMemberKey = struct{}{}
)

func byTrail(a, b *openOrder) int {
	if c := cmp.Compare(a.trailPpm, b.trailPpm); c != 0 {
		return c
	}
	return byHash(a, b)
}

func byPeak(a, b *peakGroup) int {
	if c := a.peak.Cmp(b.peak); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

func byTheta(a, b *peakGroup) int {
	if c := b.theta.Cmp(a.theta); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// base is the stored peak of a trailing order that is in no group, and
// the group its row names (0: none), which the order rejoins when it can.
type base struct {
	peak   *big.Int
	prefer uint64
}

// peaks is a pair's trailing peaks: its groups, the peaks of the trailing
// orders in none (one that cannot trail now: not executable at all, or
// past its deadline), and the rows to write with the next batch.
type peaks struct {
	store   *persistence.Store
	byPeak  *btreemap.BTreeMap[*peakGroup, struct{}]
	byTheta *btreemap.BTreeMap[*peakGroup, struct{}]
	live    map[uint64]*peakGroup
	bases   map[common.Hash]base
	// loaded are the group rows read in this process, as first read:
	// the peak an order naming the group had when the process started.
	loaded map[uint64]*big.Int
	// emptied are groups that lost their last member (or were made for a
	// row whose orders may not join); sweep drops those still empty.
	emptied []*peakGroup
	free    *btreemap.FreeList[*openOrder, struct{}]
	writes  stateWrites
	block   uint64 // the block rows are written at
}

func newPeaks(store *persistence.Store) peaks {
	return peaks{store: store,
		byPeak:  btreemap.New[*peakGroup, struct{}](peakDegree, byPeak),
		byTheta: btreemap.New[*peakGroup, struct{}](peakDegree, byTheta),
		live:    map[uint64]*peakGroup{}, bases: map[common.Hash]base{}, loaded: map[uint64]*big.Int{},
		free: btreemap.NewFreeList[*openOrder, struct{}](btreemap.DefaultFreeListSize)}
}

// resolve reads o's stored trailing state once per process: the peak it
// had (its group's as first read in this process, else its own) becomes
// its base. An order whose row names a group that is not live gets that
// group made (empty) so that it rejoins it, and the sweep drops the group's
// row if nobody does. The order's row is rewritten out of the group, which
// its joining that group in the same evaluation takes back (join).
func (p *peaks) resolve(o *openOrder) error {
	if _, ok := p.bases[o.Hash]; ok || o.group != nil {
		o.resolved = true
		return nil
	}
	if op, queued := p.writes.orders[o.Hash]; queued && op == nil {
		o.resolved = true
		return nil // closed and opened again before its row went: its peak starts again
	}
	st, found, err := readState(p.store, stateKey(o.Hash))
	if err != nil {
		return err
	}
	peak, prefer := st.peakOf(), uint64(0)
	if st.Group != 0 {
		gp, err := p.groupPeak(st.Group)
		if err != nil {
			return err
		}
		if gp != nil {
			peak, prefer = gp, st.Group
			if p.live[st.Group] == nil {
				p.emptied = append(p.emptied, p.newGroup(st.Group, gp))
			}
		}
		p.writes.order(o.Hash, rowOf(peak, p.block))
	}
	o.resolved = true
	if found && !triggered(o) { // a triggered order never trails again: its peak does not matter
		p.bases[o.Hash] = base{peak: peak, prefer: prefer}
	}
	return nil
}

// groupPeak is a stored group's peak as first read in this process (nil:
// no such row).
func (p *peaks) groupPeak(id uint64) (*big.Int, error) {
	if v, ok := p.loaded[id]; ok {
		return v, nil
	}
	st, found, err := readState(p.store, groupKey(id))
	if err != nil {
		return nil, err
	}
	var v *big.Int
	if found {
		v = st.peakOf()
	}
	p.loaded[id] = v
	return v, nil
}

// newGroup makes a live group (id 0: a fresh id) at peak.
func (p *peaks) newGroup(id uint64, peak *big.Int) *peakGroup {
	if id == 0 || p.live[id] != nil {
		id = p.freshID()
	}
	g := &peakGroup{id: id, peak: new(big.Int).Set(peak), theta: minusOne,
		members: btreemap.NewWithFreeList[*openOrder, struct{}](peakDegree, byTrail, p.free)}
	p.live[id] = g
	p.byPeak.ReplaceOrInsert(g, noMemberKey)
	p.byTheta.ReplaceOrInsert(g, noMemberKey)
	p.writes.group(id, &State{Peak: peak.String(), PeakBlock: p.block})
	return g
}

// freshID is a group id that no live group and no row read in this
// process has. Ids are random: a new group meets a stored row this process
// never read with probability 2^-64.
func (p *peaks) freshID() uint64 {
	for {
		id := rand.Uint64()
		if _, seen := p.loaded[id]; id != 0 && !seen && p.live[id] == nil {
			return id
		}
	}
}

// setTheta re-files g after its peak or its smallest trailPpm changed.
func (p *peaks) setTheta(g *peakGroup) {
	theta := minusOne
	if o, _, ok := g.members.Min(); ok && o.trailPpm < ppm {
		theta = new(big.Int).Mul(g.peak, big.NewInt(int64(ppm-o.trailPpm)))
	}
	if theta.Cmp(g.theta) == 0 {
		return
	}
	p.byTheta.Delete(g)
	g.theta = theta
	p.byTheta.ReplaceOrInsert(g, noMemberKey)
}

// join puts o, which can trail at price, in the group of its peak and
// returns that peak.
func (p *peaks) join(o *openOrder, price *big.Int) *big.Int {
	if o.group != nil {
		return o.group.peak
	}
	b := p.bases[o.Hash]
	peak := TrailingPeak(b.peak, price)
	g := p.live[b.prefer]
	if g == nil || g.peak.Cmp(peak) != 0 {
		g = p.groupAt(peak, b.prefer)
	}
	delete(p.bases, o.Hash)
	g.members.ReplaceOrInsert(o, noMemberKey)
	o.group = g
	p.setTheta(g)
	if _, queued := p.writes.orders[o.Hash]; queued && b.prefer == g.id {
		delete(p.writes.orders, o.Hash) // the stored row still names g: resolve's rewrite is moot
	} else {
		p.writes.order(o.Hash, &State{Peak: peak.String(), PeakBlock: p.block, Group: g.id})
	}
	return g.peak
}

// groupAt returns a live group at peak, made (with id prefer when that is
// not live) when there is none.
func (p *peaks) groupAt(peak *big.Int, prefer uint64) *peakGroup {
	probe := &peakGroup{peak: peak}
	for g := range p.byPeak.Ascend(btreemap.GE(probe), btreemap.Max[*peakGroup]()) {
		if g.peak.Cmp(peak) == 0 {
			return g
		}
		break
	}
	if p.live[prefer] != nil {
		prefer = 0
	}
	return p.newGroup(prefer, peak)
}

// swap puts n, the new version of an order in a group, in old's place.
func (p *peaks) swap(old, n *openOrder) {
	g := old.group
	n.group = g
	g.members.ReplaceOrInsert(n, noMemberKey)
}

// leave takes o out of its group. keep keeps its peak as its base (an
// order that may trail again) and rewrites its row out of the group.
func (p *peaks) leave(o *openOrder, keep bool) {
	g := o.group
	o.group = nil
	g.members.Delete(o)
	if keep {
		p.bases[o.Hash] = base{peak: new(big.Int).Set(g.peak)}
		p.writes.order(o.Hash, &State{Peak: g.peak.String(), PeakBlock: p.block})
	}
	if g.members.Len() == 0 {
		p.emptied = append(p.emptied, g)
		return
	}
	p.setTheta(g)
}

// closed forgets a trailing order that left the pair, and deletes its row.
func (p *peaks) closed(o *openOrder) {
	if o.group != nil {
		p.leave(o, false)
	}
	delete(p.bases, o.Hash)
	p.writes.order(o.Hash, nil)
}

// lift raises every group whose peak is below price to price: they merge
// into the largest of them, whose row takes the new peak.
func (p *peaks) lift(price *big.Int) {
	var low []*peakGroup
	for g := range p.byPeak.Ascend(btreemap.Min[*peakGroup](), btreemap.Max[*peakGroup]()) {
		if g.peak.Cmp(price) > 0 {
			break
		}
		low = append(low, g)
	}
	if len(low) == 0 || (len(low) == 1 && low[0].peak.Cmp(price) == 0) {
		return
	}
	into := low[0]
	for _, g := range low[1:] {
		if g.members.Len() > into.members.Len() {
			into = g
		}
	}
	for _, g := range low {
		p.byPeak.Delete(g)
		p.byTheta.Delete(g)
		if g == into {
			continue
		}
		for o := range g.members.Ascend(btreemap.Min[*openOrder](), btreemap.Max[*openOrder]()) {
			into.members.ReplaceOrInsert(o, noMemberKey)
			o.group = into
			p.writes.order(o.Hash, &State{Peak: price.String(), PeakBlock: p.block, Group: into.id})
		}
		delete(p.live, g.id)
		p.writes.group(g.id, nil)
	}
	into.peak, into.theta = new(big.Int).Set(price), minusOne
	p.byPeak.ReplaceOrInsert(into, noMemberKey)
	p.byTheta.ReplaceOrInsert(into, noMemberKey)
	p.setTheta(into)
	if into.members.Len() == 0 {
		p.emptied = append(p.emptied, into)
	}
	p.writes.group(into.id, &State{Peak: price.String(), PeakBlock: p.block})
}

// hits calls fn with every member that fires at price (and possibly a few
// that do not, when price is not positive).
func (p *peaks) hits(price *big.Int, fn func(*openOrder)) {
	all := btreemap.Min[*openOrder]()
	if price.Sign() <= 0 { // every peak is then at least price; decide each member
		for g := range p.byPeak.Ascend(btreemap.Min[*peakGroup](), btreemap.Max[*peakGroup]()) {
			for o := range g.members.Ascend(all, btreemap.Max[*openOrder]()) {
				fn(o)
			}
		}
		return
	}
	x := new(big.Int).Mul(price, bigPpm)
	var v big.Int
	for g := range p.byTheta.Ascend(btreemap.Min[*peakGroup](), btreemap.Max[*peakGroup]()) {
		if g.theta.Cmp(x) < 0 {
			return
		}
		for o := range g.members.Ascend(all, btreemap.Max[*openOrder]()) {
			t := o.trailPpm
			if t >= ppm || v.Mul(g.peak, big.NewInt(int64(ppm-t))).Cmp(x) < 0 {
				break
			}
			fn(o)
		}
	}
}

// sweep drops the groups left empty, and their rows.
func (p *peaks) sweep() {
	for _, g := range p.emptied {
		if g.members.Len() > 0 || p.live[g.id] != g {
			continue
		}
		p.byPeak.Delete(g)
		p.byTheta.Delete(g)
		delete(p.live, g.id)
		p.writes.group(g.id, nil)
	}
	p.emptied = p.emptied[:0]
}

// rowOf is an order row out of any group holding peak (nil: delete it).
func rowOf(peak *big.Int, block uint64) *State {
	if peak == nil {
		return nil
	}
	return &State{Peak: peak.String(), PeakBlock: block}
}

func triggered(o *openOrder) bool { return o.fired }
