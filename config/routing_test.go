package config

import (
	"strings"
	"testing"
)

func TestDefaultRoutingValidates(t *testing.T) {
	if err := defaultRouting().Validate(); err != nil {
		t.Fatalf("default routing config rejected: %v", err)
	}
}

func TestFeePolicyRejectsDirectReferralCollision(t *testing.T) {
	policy := defaultFeePolicy()
	cell := policy[KindDCA][ClassMajor]
	cell.ReferralPpm = policy[KindDirect][ClassMajor].ReferralPpm
	policy[KindDCA][ClassMajor] = cell
	err := ValidateFeePolicy(policy)
	if err == nil || !strings.Contains(err.Error(), "dca × major") {
		t.Fatalf("want a collision error naming dca × major, got %v", err)
	}
}

func TestFeePolicyRejectsMissingAndBadCells(t *testing.T) {
	policy := defaultFeePolicy()
	delete(policy[KindTrailing], ClassOther)
	if err := ValidateFeePolicy(policy); err == nil || !strings.Contains(err.Error(), "trailing × other") {
		t.Fatalf("missing cell accepted: %v", err)
	}
	policy = defaultFeePolicy()
	policy["swap"] = map[string]FeeCell{}
	if err := ValidateFeePolicy(policy); err == nil {
		t.Fatal("unknown kind accepted")
	}
	policy = defaultFeePolicy()
	policy[KindLimit][ClassStable] = FeeCell{ProtocolPpm: 90_000, ReferralPpm: 2, KeeperPpm: 10_001}
	if err := ValidateFeePolicy(policy); err == nil {
		t.Fatal("cell over the router's protocol + keeper limit accepted")
	}
	policy = defaultFeePolicy()
	policy[KindDirect][ClassMajor] = FeeCell{ProtocolPpm: 100, ReferralPpm: 7, KeeperPpm: 1}
	if err := ValidateFeePolicy(policy); err == nil {
		t.Fatal("direct cell with a keeper leg accepted")
	}
}

func TestRoutingConfigBounds(t *testing.T) {
	c := defaultRouting()
	c.MaxHops = 4
	if c.Validate() == nil {
		t.Fatal("maxHops 4 accepted")
	}
	c = defaultRouting()
	c.SplitStepPpm = 30_000
	if c.Validate() == nil {
		t.Fatal("split step not dividing 1e6 accepted")
	}
}
