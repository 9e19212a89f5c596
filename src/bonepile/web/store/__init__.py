"""Storage: the database schema and its migrations, the action writer, the cluster's leases,
finished tables' results, ratings and profiles."""
