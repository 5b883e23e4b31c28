# model layer sources
