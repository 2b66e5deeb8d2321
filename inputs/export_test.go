package inputs

// testRegistry is the registry the package's own tests read with, set from package runtimes by
// registry_ext_test.go before any test runs.
var testRegistry Registry

// SetTestRegistry sets testRegistry.
func SetTestRegistry(r Registry) { testRegistry = r }

// withTestRegistry is opts with testRegistry when it has no registry.
func withTestRegistry(opts Options) Options {
	if opts.Registry.Binding == nil {
		opts.Registry = testRegistry
	}
	return opts
}
