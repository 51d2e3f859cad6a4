package knowledge

// PlatformNames is how every post and answer names a platform or price
// provider: the English and Chinese display names for an id as sources
// spell it ("autodl", "primeintellect", "hot-aisle"). platforms.yaml comes
// first, then the market snapshot's providers.yaml; zh is en where there
// is no Chinese name, and an id known to neither names itself. Picking the
// language is the caller's (present.Tr), so this stays data.
func (b *Base) PlatformNames(id string) (en, zh string) {
	if b != nil {
		if p, ok := b.Platform(id); ok && p.Name != "" {
			return p.Name, orElse(p.NameZH, p.Name)
		}
	}
	if p, ok := LookupProvider(id); ok && p.Name != "" {
		return p.Name, orElse(p.NameZH, p.Name)
	}
	return id, id
}

// GPUName is the name people know a card by ("H100 SXM" for "h100-sxm");
// an unknown id names itself.
func (b *Base) GPUName(id string) string {
	if b != nil {
		if g, ok := b.GPU(id); ok && g.Name != "" {
			return g.Name
		}
	}
	return id
}

func orElse(s, fallback string) string {
	if s != "" {
		return s
	}
	return fallback
}
