package advisor

import (
	"errors"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// Every shipped card, with the shipped offers, answers each money question
// or says what input is missing; nothing else goes wrong.
func TestEveryShippedCardAnswers(t *testing.T) {
	m := MarketOf(knowledge.MustShipped())
	ok := func(call string, err error) {
		t.Helper()
		var in *InputError
		if err != nil && !errors.As(err, &in) {
			t.Errorf("%s: %v (not an InputError)", call, err)
		}
	}
	for _, g := range m.GPUs {
		for _, cur := range []knowledge.Currency{knowledge.CNY, knowledge.USD} {
			_, err := Cost(CostInput{Workload: Workload{ParamsB: 7, Method: LoRA}, GPU: g.ID, Samples: 10000, Currency: cur}, m)
			ok("Cost(7b lora, "+g.ID+")", err)
			_, err = Cost(CostInput{Workload: Workload{ParamsB: 70, Method: Inference}, GPU: g.ID, Tokens: 1e8, Currency: cur}, m)
			ok("Cost(70b inference, "+g.ID+")", err)
			_, err = Monthly(MonthlyInput{GPU: g.ID, HoursPerMonth: 200, Currency: cur}, m)
			ok("Monthly("+g.ID+")", err)
			_, err = Buy(BuyInput{GPU: g.ID, Currency: cur}, m)
			ok("Buy("+g.ID+")", err)
			_, err = Offers(g.ID, m.Offers, cur, 0)
			ok("Offers("+g.ID+")", err)
			_, err = Compare([]string{g.ID, "h100-sxm"}, m, cur, 0)
			ok("Compare("+g.ID+")", err)
		}
	}
	for _, cur := range []knowledge.Currency{knowledge.CNY, knowledge.USD} {
		_, err := Recommend(RecommendInput{Budget: Money{Amount: 5000}, Persona: "startup", Currency: cur}, m)
		ok("Recommend(budget=5000)", err)
		_, err = Cost(CostInput{Workload: Workload{ParamsB: 13, Method: QLoRA}, Tokens: 1e8, Currency: cur}, m)
		ok("Cost(13b qlora, any card)", err)
	}
}
