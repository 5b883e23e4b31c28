# themes
