import { Card, CardContent, Stack, Typography } from '@mui/material';

/** A row of labelled figures above a chart. */
export function StatCards({ figures }: { figures: { label: string; value: number }[] }) {
  return (
    <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" sx={{ mb: 2 }}>
      {figures.map(({ label, value }) => (
        <Card key={label} variant="outlined" sx={{ minWidth: 150 }}>
          <CardContent>
            <Typography variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography variant="h5" component="p">
              {value.toLocaleString('en-US')}
            </Typography>
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}
