# probe layer sources
