# out layer sources
