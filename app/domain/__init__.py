"""The product's vocabulary shared by wire models and read models; depends on nothing."""
