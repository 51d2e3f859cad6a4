package advisor

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gpubot/gpubot/knowledge"
)

func TestConvertFigure(t *testing.T) {
	approx := cmpopts.EquateApprox(0, 0.005) // to the cent
	for _, tc := range []struct {
		name string
		in   ConvertInput
		want []ConvertedFigure
	}{
		{"a one-off dollar amount in yuan at 7.2",
			ConvertInput{Amount: Money{Amount: 14342, Currency: knowledge.USD}, To: knowledge.CNY, FX: 7.2},
			// 14,342 × 7.2 = 103,262.40
			[]ConvertedFigure{{Per: PerTotal, From: 14342, To: 103262.40}}},
		{"a monthly run rate in dollars a year",
			ConvertInput{Amount: Money{Amount: 850000, Currency: knowledge.CNY}, To: knowledge.USD, FX: 7.2, Per: PerMonth, Want: []Period{PerYear}},
			// 850,000 ÷ 7.2 = 118,055.56 a month; × 12 = 1,416,666.67 a year
			[]ConvertedFigure{{Per: PerMonth, From: 850000, To: 118055.56}, {Per: PerYear, From: 10200000, To: 1416666.67}}},
		{"a machine's month in dollars and per GPU-hour",
			ConvertInput{Amount: Money{Amount: 68000, Currency: knowledge.CNY}, To: knowledge.USD, FX: 7.2, Per: PerMonth,
				Want: []Period{PerCardHour}, Cards: 8, HoursPerMonth: 720},
			// 68,000 ÷ 7.2 = 9,444.44; 68,000 ÷ (8 × 720) = 11.806 → ÷ 7.2 = 1.6397
			[]ConvertedFigure{{Per: PerMonth, From: 68000, To: 9444.44}, {Per: PerCardHour, From: 11.81, To: 1.64}}},
		{"a card-hour in yuan at a stated 7.15",
			ConvertInput{Amount: Money{Amount: 2.49, Currency: knowledge.USD}, To: knowledge.CNY, FX: 7.15, FXStated: true, Per: PerCardHour},
			// 2.49 × 7.15 = 17.8035
			[]ConvertedFigure{{Per: PerCardHour, From: 2.49, To: 17.80}}},
		{"a card-hour over a 730-hour month",
			ConvertInput{Amount: Money{Amount: 2, Currency: knowledge.USD}, To: knowledge.CNY, FX: 7, Per: PerCardHour, Want: []Period{PerMonth}},
			// 2 × 7 = 14 a card-hour; × 730 h = 10,220 a month
			[]ConvertedFigure{{Per: PerCardHour, From: 2, To: 14}, {Per: PerMonth, From: 1460, To: 10220}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ConvertFigure(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.Figures, approx); diff != "" {
				t.Errorf("ConvertFigure figures (-want +got):\n%s", diff)
			}
			if len(got.Lines) != len(tc.want) {
				t.Errorf("ConvertFigure lines = %d, want one per figure (%d)", len(got.Lines), len(tc.want))
			}
			for i, l := range got.Lines {
				if l.How == "" || math.Abs(l.Value-got.Figures[i].To) > 1e-9 {
					t.Errorf("line %d = %+v, want the figure %v with its arithmetic", i, l, got.Figures[i].To)
				}
			}
		})
	}
}

func TestConvertFigureRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    ConvertInput
		field string
	}{
		{"euros", ConvertInput{Amount: Money{Amount: 2.1, Currency: "EUR"}, To: knowledge.USD, FX: 7.2}, "amount"},
		{"no target currency", ConvertInput{Amount: Money{Amount: 5, Currency: knowledge.USD}}, "currency"},
		{"a rate out of range", ConvertInput{Amount: Money{Amount: 5, Currency: knowledge.USD}, To: knowledge.CNY, FX: 108}, "fx"},
		{"a one-off amount per month", ConvertInput{Amount: Money{Amount: 5, Currency: knowledge.USD}, To: knowledge.CNY, Want: []Period{PerMonth}}, "per"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ConvertFigure(tc.in)
			var in *InputError
			if !errors.As(err, &in) || in.Field != tc.field {
				t.Errorf("ConvertFigure(%+v) err = %v, want an input error on %s", tc.in, err, tc.field)
			}
		})
	}
}

func TestWeighFigures(t *testing.T) {
	// $2.49 × 7.2 = ¥17.928 against ¥15.8: the second is lower by ¥2.128
	w, err := WeighFigures(Money{Amount: 2.49, Currency: knowledge.USD}, Money{Amount: 15.8, Currency: knowledge.CNY}, knowledge.CNY, 7.2)
	if err != nil {
		t.Fatal(err)
	}
	if w.Lower != 1 || math.Abs(w.Difference-2.128) > 1e-9 || math.Abs(w.First-17.928) > 1e-9 {
		t.Errorf("WeighFigures($2.49, ¥15.8) = %+v, want the second lower by 2.128", w)
	}
}
